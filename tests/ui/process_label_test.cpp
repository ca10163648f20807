// The timeline's process headers: named by the trace's process name and pid, once each.
#include <gtest/gtest.h>

#include "app/gui/timeline/timeline_model.h"

namespace {

using app::gui::timeline::ProcessGroupLabel;

core::model::Process Named(int64_t pid, std::string name) {
  core::model::Process p;
  p.pid = pid;
  p.name = std::move(name);
  return p;
}

TEST(ProcessLabel, ANamedProcessShowsItsNameAndPid) {
  EXPECT_EQ(ProcessGroupLabel(Named(15524, "vrcompositor.exe")),
            "Process vrcompositor.exe (pid 15524)");
  // A name that already carries its pid keeps it once.
  EXPECT_EQ(ProcessGroupLabel(Named(7, "CPU (python3) (pid 7)")), "Process CPU (python3) (pid 7)");
}

TEST(ProcessLabel, AProcessTheTraceDoesNotNameShowsItsPidOnce) {
  EXPECT_EQ(ProcessGroupLabel(Named(123, "")), "Process pid 123");
  // The name importers give a process the trace does not name: not "Process process 123".
  EXPECT_EQ(ProcessGroupLabel(Named(123, "process 123")), "Process pid 123");
  // Another process's number is a name like any other.
  EXPECT_EQ(ProcessGroupLabel(Named(5, "process 123")), "Process process 123 (pid 5)");
}

}  // namespace
