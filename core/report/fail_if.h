// `--fail-if EXPR`: a small boolean expression over the keys of a report's JSON, for CI gates.
//
//   expr    := or
//   or      := and ('||' and)*
//   and     := unary ('&&' unary)*
//   unary   := '!' unary | compare
//   compare := sum (('>' | '>=' | '<' | '<=' | '==' | '!=') sum)?
//   sum     := product (('+' | '-') product)*
//   product := primary (('*' | '/') primary)*
//   primary := number | key | '(' expr ')' | '-' primary
//   key     := name ('.' name | '[' index ']' | '[' "queue name" ']')*
//
// Keys are JSON paths: `interrupts.spurious`, `fences.waits_never_unblocked`,
// `queues[0].busy_ns`, `queues["3d queue"].waiting_ns` (an array element by its "name").
// Booleans read as 1 / 0; a value is true when non-zero. Example:
//   interrupts.spurious > 10 || fences.waits_never_unblocked > 0
#pragma once

#include <string>

#include "core/report/json.h"

namespace core::report {

// Throws core::Error naming the column for a syntax error, and the key (with the keys that do
// exist at that level) for an unknown key or a key that is not a number.
bool EvaluateFailIf(const Json& report, const std::string& expression);

// The JSON value at `path` (same key syntax), or nullptr.
const Json* FindPath(const Json& root, const std::string& path);

}  // namespace core::report
