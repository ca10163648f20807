#include "app/gui_entry.h"

namespace app {
namespace {
int g_exit_code = 0;  // set by at most one subcommand callback per process
}
int ExitCode() { return g_exit_code; }
void SetExitCode(int code) { g_exit_code = code; }
}  // namespace app
