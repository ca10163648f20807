#include "app/cli/whatif_edit_options.h"

#include <fmt/format.h>

#include "core/analysis/time_input.h"
#include "core/model/error.h"

namespace app::cli {

namespace {

// "NAME=VALUE" -> (NAME, VALUE); the name may hold '=' itself, the last one splits.
std::pair<std::string, std::string> SplitAssignment(const std::string& option,
                                                     const std::string& text) {
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw core::Error(fmt::format("{} '{}': expected NAME=VALUE", option, text));
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

double Number(const std::string& option, const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw core::Error(fmt::format("{}: '{}' is not a number", option, text));
}

}  // namespace

void AddWhatIfEditOptions(CLI::App& cmd, WhatIfEditOptions& options) {
  cmd.add_option("--scale", options.scale,
                 "'PATTERN=FACTOR': packets whose name matches the glob run FACTOR times as long "
                 "(0.5: twice as fast; may repeat)");
  cmd.add_option("--scale-queue", options.scale_queue,
                 "'QUEUE=FACTOR': every packet of the queue runs FACTOR times as long");
  cmd.add_option("--remove-wait", options.remove_wait, "WAIT_ID: this GPU wait is not made");
  cmd.add_option("--remove-waits", options.remove_waits,
                 "'WAITING_QUEUE<-SIGNALLING_QUEUE': the GPU waits of the first queue that a "
                 "signal of the second released are not made");
  cmd.add_option("--remove-sync", options.remove_sync,
                 "CALL: CPU waits made by this host call (cudaStreamSynchronize, ...) are not made");
  cmd.add_option("--remove-cpu-waits", options.remove_cpu_waits,
                 "THREAD: no CPU wait of this thread is made");
  cmd.add_option("--remove-cpu-wait", options.remove_cpu_wait,
                 "WAITER_ID: this CPU wait (its wait group) is not made");
  cmd.add_option("--cpu-scale", options.cpu_scale,
                 "FACTOR: the CPU time between a thread's calls is FACTOR times as long (0: an "
                 "infinitely fast host); launches the trace has no call for stay when they were");
  cmd.add_option("--launch-latency", options.launch_latency,
                 "every queue's launch latency (ns, or with a unit: 2us)");
  cmd.add_option("--priority", options.priority, "'QUEUE=N': the queue's priority on its engine");
  cmd.add_option("--fence-mode", options.fence_mode,
                 "native or monitored: every fence run as a WDDM 3.2 native or a legacy monitored "
                 "fence (as `simulate --fence-mode`)")
      ->check(CLI::IsMember({"native", "monitored"}));
  cmd.add_option("--preemption-granularity", options.preemption_granularity,
                 "every adapter's preemption granularity (as `simulate "
                 "--preemption-granularity`)");
}

core::replay::Edits EditsOf(const WhatIfEditOptions& o) {
  core::replay::Edits e;
  for (const auto& s : o.scale) {
    auto [name, value] = SplitAssignment("--scale", s);
    e.scale.push_back({name, Number("--scale", value)});
  }
  for (const auto& s : o.scale_queue) {
    auto [name, value] = SplitAssignment("--scale-queue", s);
    e.scale_queue.push_back({name, Number("--scale-queue", value)});
  }
  for (const auto& s : o.remove_waits) {
    const size_t arrow = s.find("<-");
    if (arrow == std::string::npos || arrow == 0 || arrow + 2 == s.size()) {
      throw core::Error(fmt::format("--remove-waits '{}': expected WAITING_QUEUE<-SIGNALLING_QUEUE", s));
    }
    e.remove_waits.push_back({s.substr(0, arrow), s.substr(arrow + 2)});
  }
  e.remove_wait = o.remove_wait;
  e.remove_sync = o.remove_sync;
  e.remove_cpu_waits = o.remove_cpu_waits;
  e.remove_cpu_wait = o.remove_cpu_wait;
  e.cpu_scale = o.cpu_scale;
  if (!o.launch_latency.empty()) {
    // A time after an origin of 0 is a duration: "2us", "1500".
    e.launch_latency_ns =
        core::analysis::ParseTraceTime("--launch-latency", o.launch_latency, {0, 0, ""});
  }
  for (const auto& s : o.priority) {
    auto [name, value] = SplitAssignment("--priority", s);
    const double p = Number("--priority", value);
    if (p != static_cast<int32_t>(p)) {
      throw core::Error(fmt::format("--priority '{}': the priority is an integer", s));
    }
    e.priority.push_back({name, static_cast<int32_t>(p)});
  }
  e.fence_mode = o.fence_mode;
  e.preemption_granularity = o.preemption_granularity;
  return e;
}

}  // namespace app::cli
