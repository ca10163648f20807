// fencescope: the desktop window and the headless subcommands in one executable.
// Subcommands run before any window exists, so `report`, `import`, ... work without a display.
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli/huge_page_malloc.h"
#include "app/command_line.h"
#include "app/gui_entry.h"
#include "core/model/error.h"
#include "core/store/sqlite_db.h"

int main(int argc, char** argv) {
  // Before anything is allocated: may start the process again with malloc on 2 MB pages.
  app::cli::RestartWithHugePageMalloc(argv);
  CLI::App app;
  app::DefineCommandLine(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const core::store::DamagedDatabaseError& e) {
    // The same message and exit code from every command that reads the damaged trace.
    std::cerr << "fencescope: error: " << e.what() << "\n";
    return core::store::kDamagedExitCode;
  } catch (const core::Error& e) {
    std::cerr << "fencescope: error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    // Commands that read files name them (e.g. import); this is the last resort for the rest.
    std::string command;
    for (int i = 1; i < argc; ++i) command += std::string(i > 1 ? " " : "") + argv[i];
    std::cerr << "fencescope: error: out of memory running: fencescope " << command << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "fencescope: error: " << e.what() << "\n";
    return 1;
  }
  if (app.get_subcommands().empty()) return app::RunDefaultWindow();
  return app::ExitCode();
}
