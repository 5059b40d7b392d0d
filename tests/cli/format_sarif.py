# --format=sarif: the diagnostics as one SARIF 2.1.0 log (docs/commscope-opt.md, "SARIF"): one
# run, tool commscope-opt with its version, one rule per error code with its descriptions, one
# result per diagnostic at its location, notes as related locations; exit status as without it.
# tests/scripts/sarif-validate.sh checks such logs with a SARIF validator.
# RUN: %commscope-opt --format=sarif %s > %t.sarif 2> %t.err; test $? -eq 1
# RUN: %FileCheck %s < %t.sarif
# CHECK:      "version": "2.1.0",
# CHECK:      "runs": [
# CHECK:            "name": "commscope-opt",
# CHECK-NEXT:       "version": "{{[0-9]+\.[0-9]+\.[0-9]+}}",
# CHECK:            "informationUri": "https://{{.+}}",
# CHECK:            "rules": [
# CHECK-NEXT:         {
# CHECK-NEXT:           "id": "dead-alloc",
# CHECK-NEXT:           "shortDescription": {
# CHECK-NEXT:             "text": "An allocation has no window view."
# CHECK:                "fullDescription": {
# CHECK:                "help": {
# CHECK-NEXT:             "text": "take a view of it with pld.window(...) and dispatch the view, or remove the allocation"
# CHECK:                "id": "unconsumed-alloc",
# CHECK:                "id": "verify",
# CHECK:                "id": "syntax",
# CHECK:                "id": "unknown-decorator",
# CHECK:          "columnKind": "unicodeCodePoints",
# CHECK:          "results": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "ruleId": "unconsumed-alloc",
# CHECK-NEXT:         "ruleIndex": 1,
# CHECK-NEXT:         "level": "error",
# CHECK-NEXT:         "message": {
# CHECK-NEXT:           "text": "allocation 'buf' has views but no dispatch or collective gives it devices"
# CHECK:                  "uri": "{{.*}}format_sarif.py"
# CHECK:                  "startLine": 76,
# CHECK-NEXT:             "startColumn": 9
# CHECK:            "relatedLocations": [
# CHECK:                    "startLine": 77,
# CHECK-NEXT:               "startColumn": 9
# CHECK:              "id": 0,
# CHECK-NEXT:         "message": {
# CHECK-NEXT:           "text": "a view of it is taken here"
# The usual diagnostics still go to standard error.
# RUN: %FileCheck --check-prefix=ERR %s < %t.err
# ERR: format_sarif.py:76:9: error: allocation 'buf' has views but no dispatch or collective gives it devices [unconsumed-alloc]
#
# Several inputs make one log; a syntax error is a result of rule `syntax`.
# RUN: cd %S && %commscope-opt --format=sarif several > %t.many.sarif 2>/dev/null; test $? -eq 3
# RUN: %FileCheck --check-prefix=MANY %s < %t.many.sarif
# MANY:     "executionSuccessful": true
# MANY:     "ruleId": "dead-alloc",
# MANY:       "uri": "several/b_dead.py"
# MANY:     "ruleId": "syntax",
# MANY:       "uri": "several/sub/z_syntax.py"
#
# Artifact URIs are relative to the directory the tool runs in, without `./`, under the
# base %SRCROOT% that the run sets to that directory.
# RUN: cd %S && %commscope-opt --format=sarif ./format_sarif.py > %t.uri.sarif 2> /dev/null; test $? -eq 1
# RUN: %FileCheck --check-prefix=URI %s < %t.uri.sarif
# URI:      "uri": "format_sarif.py",
# URI-NEXT: "uriBaseId": "%SRCROOT%"
# URI:      "originalUriBaseIds": {
# URI-NEXT:   "%SRCROOT%": {
# URI-NEXT:     "uri": "file:///{{.*}}tests/cli/"
#
# A file that cannot be read: exit 2, and the log says so in a notification.
# RUN: %commscope-opt --format=sarif %t.missing.py > %t.io.sarif 2>/dev/null; test $? -eq 2
# RUN: %FileCheck --check-prefix=IO %s < %t.io.sarif
# IO:      "executionSuccessful": false,
# IO-NEXT: "toolExecutionNotifications": [
# IO:        "text": "cannot open '{{.*}}missing.py': No such file or directory"
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def host():
        buf = pld.alloc_window_buffer(64)
        v = pld.window(buf, [16], dtype=pl.FP32)
        return v
