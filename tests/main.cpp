// The one doctest main. CTest runs each test case on its own, by name: a name that
// doctest's filter cannot match (a ';' splits CMake's list, a ',' doctest's filter) would
// run nothing and pass, so a run in which no test case passed the filters fails.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

namespace {

bool ran_none = false;

struct ran_none_listener : doctest::IReporter {
  explicit ran_none_listener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& s) override {
    ran_none = s.numTestCasesPassingFilters == 0;
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

} // namespace

REGISTER_LISTENER("ran_none", 1, ran_none_listener);

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit())
    return result;
  if (ran_none) {
    std::fputs("no test case matched the filters: a test name with ';' or ','?\n", stderr);
    return 1;
  }
  return result;
}
