// Examples for every subcommand, shown at the end of `fencescope SUBCOMMAND --help` and in the man
// page's section for it. tests/cli/cli_docs_test.cpp checks that every subcommand has some and
// that each example names only options its subcommand has.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace app::cli {

struct Example {
  std::string command;      // "fencescope simulate default -o t.db"
  std::string explanation;  // one line: what it does
};

// The examples of a subcommand by its path ("simulate", "bench import"); empty when none.
const std::vector<Example>& ExamplesFor(const std::string& path);

// Sets every subcommand's --help footer to its examples.
void AddExamples(CLI::App& app);

// "bench import" for the subcommand `import` of `bench`; "" for the top-level app.
std::string CommandPath(const CLI::App& sub);

// The subcommands --help lists under `app` (not option groups, not hidden ones), in its order.
std::vector<const CLI::App*> VisibleSubcommands(const CLI::App& app);

// Those of `app` and, after each, its own (depth first).
std::vector<const CLI::App*> AllSubcommands(const CLI::App& app);

}  // namespace app::cli
