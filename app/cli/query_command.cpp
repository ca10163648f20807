#include <iostream>

#include "app/cli/commands.h"
#include "core/report/table_text.h"
#include "core/store/query.h"

namespace app::cli {

void RegisterQueryCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("query", "Run one read-only SQL statement on a trace and print "
                                          "the result table (reads only: SELECT, WITH, schema "
                                          "PRAGMAs; one statement per call)");
  struct Options {
    std::string trace;
    std::string sql;
    bool csv = false;
    double timeout_seconds = core::store::kDefaultQueryTimeoutSeconds;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("TRACE", options->trace, "fencescope trace database")->required();
  cmd->add_option("SQL", options->sql, "SQL statement, e.g. \"SELECT * FROM queues\"")->required();
  cmd->add_flag("--csv", options->csv, "Print CSV (RFC 4180) instead of an aligned table");
  cmd->add_option("--timeout", options->timeout_seconds,
                  "Stop the query with an error after this many seconds (0: no limit)")
      ->capture_default_str()
      ->check(FiniteRange(0, 1e9));
  cmd->callback([options] {
    auto result = core::store::RunQuery(options->trace, options->sql, SIZE_MAX,
                                         options->timeout_seconds);
    if (options->csv) {
      std::cout << core::report::FormatCsv(result.columns, result.rows);
    } else {
      std::cout << core::report::FormatAlignedTable(result.columns, result.rows);
      std::cout << "(" << result.rows.size() << " row" << (result.rows.size() == 1 ? "" : "s")
                << ")\n";
    }
  });
}

}  // namespace app::cli
