// Systrace HTML pages (Android's `systrace` / catapult's trace2html output): the ftrace text is
// embedded in the page, either in
//   <script class="trace-data" type="application/text"> # tracer: nop ... </script>
// blocks (one per data source; Chrome JSON ones are skipped) or, in older pages, as a
// JavaScript string whose lines each end in `\n\` before the line break:
//   var linuxPerfData = "<line break># tracer: nop\n<line break>...";
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace importers::ftrace {

struct SystraceData {
  std::string ftrace_text;       // the first block of ftrace text, unescaped
  uint64_t text_line = 0;        // 1-based line of the page where it starts (0: none)
  uint64_t json_blocks = 0;      // trace-data blocks holding JSON (not read)
  uint64_t other_blocks = 0;     // further ftrace blocks, or blocks of neither kind (not read)
};

// True when `prefix` starts an HTML page (`<!DOCTYPE html` or `<html`, any case, after white
// space or a BOM).
bool LooksLikeHtml(std::string_view prefix);

SystraceData ExtractSystraceData(std::string_view html);

}  // namespace importers::ftrace
