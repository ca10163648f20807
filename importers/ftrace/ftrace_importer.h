// Imports Linux ftrace captures into a fencescope trace: trace-cmd `.dat` files (read through
// libtracecmd, trace_dat_reader.h) and ftrace text (trace-cmd report, systrace, trace_pipe;
// ftrace_text_reader.h; also inside systrace HTML pages, systrace_html.h). Both readers feed one mapper (ftrace_gpu_mapper.h), so a `.dat` and
// its `trace-cmd report` text give the same trace (up to the text's microsecond timestamps).
//
// Import problems (info rows of import_problems unless said otherwise):
//   ftrace_event <name>     events read per tracepoint name
//   ftrace_not_mapped <name> events read but not mapped (counted only)
//   ftrace_bad_line         (error) text lines that are not event lines; skipped, the first
//                           one's line number and text in `place`
//   ftrace_* link counters  jobs without a submit, signals without an emit, ...
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/store/trace_writer.h"
#include "importers/import_options.h"

namespace importers::ftrace {

struct FtraceImportStats {
  uint64_t input_bytes = 0;
  uint64_t events = 0;          // event records / lines read
  uint64_t bad_lines = 0;       // text only
  uint64_t records_written = 0;
  double read_seconds = 0;      // reading and mapping
  double write_seconds = 0;     // TraceWriter appends
};

// `bytes` is a whole .dat file; `label` names it in messages. Throws core::Error naming the file
// and place of a truncated or unreadable file. Does not Commit.
FtraceImportStats ImportTraceDat(std::string_view bytes, const std::string& label,
                                 core::store::TraceWriter& writer, const ImportOptions& options);

// `text` is ftrace text. Broken lines are counted, never fatal; a text with no event line at
// all is an error naming the file and its first line. Does not Commit.
FtraceImportStats ImportFtraceText(std::string_view text, const std::string& label,
                                   core::store::TraceWriter& writer, const ImportOptions& options);

// `html` is a systrace HTML page (systrace_html.h): its ftrace text is imported as by
// ImportFtraceText, messages naming the page and the line where the text starts. A page with
// no ftrace text is an error naming the file. Does not Commit.
FtraceImportStats ImportSystraceHtml(std::string_view html, const std::string& label,
                                     core::store::TraceWriter& writer,
                                     const ImportOptions& options);

}  // namespace importers::ftrace
