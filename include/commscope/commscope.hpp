// The one include for users: the pass (analyze, materialize, run), its plan and
// diagnostics, the companion pass (plan_signals, synthesize, synthesize_signals), and the
// verifier. Adapters include traits.hpp for the contract.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/analyze.hpp>
#include <commscope/device_set.hpp>
#include <commscope/diagnostics.hpp>
#include <commscope/materialize.hpp>
#include <commscope/plan.hpp>
#include <commscope/plan_signals.hpp>
#include <commscope/rewrite_result.hpp>
#include <commscope/run.hpp>
#include <commscope/signal_plan.hpp>
#include <commscope/synthesize.hpp>
#include <commscope/traits.hpp>
#include <commscope/verify.hpp>
