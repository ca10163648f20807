#include "app/cli/report_output.h"

#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "app/gui_entry.h"
#include "core/report/fail_if.h"
#include "core/store/output_file.h"

namespace app::cli {

std::string ReportFormatFor(const std::string& output, const std::string& format) {
  if (!format.empty()) return format;
  const std::string ext = std::filesystem::path(output).extension().string();
  return ext == ".json" ? "json" : ext == ".md" ? "md" : output.empty() ? "json" : "html";
}

std::vector<std::string> TrippedGates(const core::report::Json& json,
                                      const std::vector<std::string>& fail_if) {
  std::vector<std::string> tripped;
  for (const std::string& expr : fail_if) {
    if (core::report::EvaluateFailIf(json, expr)) tripped.push_back(expr);
  }
  return tripped;
}

void DeliverReport(const std::string& output, const std::string& content,
                   const std::string& note, const std::vector<std::string>& tripped) {
  if (output.empty()) {
    std::cout << content;
  } else {
    core::store::WriteFileAtomically(output, content);
    std::cerr << fmt::format("wrote {} ({}, {} bytes)\n", output, note, content.size());
  }
  for (const std::string& expr : tripped) {
    std::cerr << fmt::format("fail-if: \"{}\" is true\n", expr);
  }
  if (!tripped.empty()) app::SetExitCode(3);
}

}  // namespace app::cli
