#include "importers/chrome_json/chrome_json_importer.h"

#include <malloc.h>

#include <charconv>
#include <thread>

#include <fmt/format.h>
#include <simdjson.h>

#include "core/model/error.h"
#include "importers/chrome_json/background_scanner.h"
#include "importers/chrome_json/chrome_event_parser.h"
#include "importers/chrome_json/chrome_trace_builder.h"
#include "importers/chrome_json/json_container_scanner.h"
#include "importers/chrome_json/parallel_event_parse.h"
#include "importers/common/record_time_bound.h"
#include "importers/common/text_place.h"

namespace importers::chrome_json {
namespace {

// Top-level values longer than this are not copied into meta (a systemTraceEvents string can
// hold a whole ftrace capture).
constexpr size_t kMaxMetaValue = 1024;

// Events parsed as one simdjson document (ChromeEventParser::ParseEvents): 256 events are 50-100 KB
// of JSON, small enough to stay in the second-level cache between simdjson's two stages.
constexpr size_t kEventsPerRun = 256;

bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

constexpr uint64_t kNoEvent = ~uint64_t{0};

// Bytes kept resident behind the parse's progress (ParseChromeJson): pieces are about half a
// megabyte, so a few of them.
constexpr uint64_t kParsedMargin = 4u << 20;

// The first byte of the object after the event ending at `end` when a comma and a '{' follow
// (white space between allowed), else kNoEvent.
uint64_t EventAfter(std::string_view content, uint64_t end) {
  uint64_t p = end;
  while (p < content.size() && IsJsonSpace(content[p])) ++p;
  if (p >= content.size() || content[p] != ',') return kNoEvent;
  ++p;
  while (p < content.size() && IsJsonSpace(content[p])) ++p;
  return p < content.size() && content[p] == '{' ? p : kNoEvent;
}

// PyTorch's profiler writes the rank of a distributed job as {"distributedInfo": {"backend":
// "nccl", "rank": 3, "world_size": 8}}. Its integer members become meta rows
// json.distributedInfo.<name> (a fleet takes the rank from there, core/fleet/fleet_inputs.h); a
// member that is not an integer is left out, a distributedInfo that is not JSON is an error.
void ReadDistributedInfo(std::string_view text, ParsedTrace& trace, const std::string& label) {
  if (text.empty()) return;
  simdjson::dom::parser parser;
  simdjson::dom::element info;
  if (parser.parse(text.data(), text.size(), true).get(info) != simdjson::SUCCESS ||
      !info.is_object()) {
    throw core::Error(fmt::format("{}: top-level \"distributedInfo\" is not a JSON object", label));
  }
  for (auto [key, value] : info.get_object()) {
    int64_t n = 0;
    if (value.get_int64().get(n) == simdjson::SUCCESS) {
      trace.top_level["distributedInfo." + std::string(key)] = std::to_string(n);
    }
  }
}

void ReadTopLevel(const JsonContainerScanner& scanner, ParsedTrace& trace,
                  core::store::TraceWriter& writer, const std::string& label) {
  for (const auto& [key, raw] : scanner.top_level()) {
    std::string value = raw;
    if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
    if (key == "baseTimeNanoseconds") {
      int64_t base = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), base);
      if (ec != std::errc() || base < 0 || base > kLatestRecordNs) {
        throw core::Error(fmt::format("{}: top-level \"baseTimeNanoseconds\" is not an integer "
                                      "from 0 to 3e18: {}",
                                      label, raw));
      }
      trace.base_time_ns = base;
    }
    if (key == "systemTraceEvents" && value.size() > 0) {
      writer.CountProblem("json_system_trace_skipped", core::model::Severity::kInfo,
                          "an embedded systemTraceEvents sub-trace (not read)");
    }
    if (value.size() <= kMaxMetaValue) trace.top_level[key] = value;
  }
  trace.fencescope_topology = std::string(scanner.TopLevelStructureText("fencescopeTopology"));
  ReadDistributedInfo(scanner.TopLevelStructureText("distributedInfo"), trace, label);
  for (const auto& [key, offset] : scanner.top_level_structures()) {
    if (key == "systemTraceEvents") {
      writer.CountProblem("json_system_trace_skipped", core::model::Severity::kInfo,
                          "an embedded systemTraceEvents sub-trace (not read)", 1,
                          fmt::format("byte {}", offset));
    }
  }
}

}  // namespace

void ParseChromeJson(const DecodedInput& input, core::store::TraceWriter& writer,
                     const ImportOptions& options, ParsedTrace& trace) {
  const std::string_view content = input.bytes.view();
  auto report = [&](double f) {
    if (options.progress) options.progress(f);
  };
  JsonContainerScanner scanner(content, input.label);
  scanner.set_lenient_truncation(options.lenient);
  ChromeEventParser parser(writer, trace);
  uint64_t next_report = 0;
  std::vector<EventSpan> batch;
  // A run that did not parse as a whole holds a bad event: parse it again event by event to
  // name that event and its place (or, with --lenient, to skip just that one).
  auto parse_one_by_one = [&](const EventSpan* run, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const EventSpan& span = run[i];
      try {
        parser.Parse(span.offset, span.text);
      } catch (const BadEvent& bad) {
        if (!options.lenient) {
          throw core::Error(
              fmt::format("{}: {}", DescribePlace(input.label, content, bad.offset), bad.message));
        }
        if (trace.bad_events_skipped++ == 0) {
          trace.first_bad_event =
              fmt::format("{}: {}", DescribeOffset(content, bad.offset), bad.message);
        }
      }
    }
  };
  auto report_offset = [&](uint64_t reached) {
    if (reached >= next_report) {
      report(0.5 * static_cast<double>(reached) / std::max<size_t>(content.size(), 1));
      next_report = reached + (8u << 20);
      // What is parsed need not stay resident (a mapped file only); the margin covers the
      // pieces the second core may still be parsing behind `reached`.
      if (reached > kParsedMargin) input.bytes.DropMappedPagesBefore(reached - kParsedMargin);
    }
  };
  EventSpan first;
  if (scanner.Next(&first)) {
    parse_one_by_one(&first, 1);
    // The middle of the array is cut into pieces parsed on both cores. A piece that does not
    // parse is read event by event with the scanner, then pieces go on after it; the scanner
    // also reads the end of the array (the whole array without parse_in_parallel, or without
    // helper threads).
    uint64_t next = options.parse_in_parallel && options.helper_threads
                        ? EventAfter(content, first.offset + first.text.size())
                        : kNoEvent;
    while (next != kNoEvent) {
      // Without --lenient a bad bracket fails the import anyway: the pieces' bracket kinds are
      // checked later, beside the write (ImportChromeJson). With it, before each piece's parse,
      // so that a bad event is skipped alone.
      const ParallelParseStop stop =
          ParseEventsInParallel(content, next, parser, report_offset,
                                options.lenient ? nullptr : &trace.unchecked_pieces);
      scanner.ResumeAt(stop.resume);
      if (stop.failed_end == 0) break;
      EventSpan span;
      next = kNoEvent;
      while (scanner.Next(&span)) {
        parse_one_by_one(&span, 1);
        const uint64_t end = span.offset + span.text.size();
        if (end >= stop.failed_end) {
          // When another event follows, pieces start there; otherwise the scanner goes on.
          next = EventAfter(content, end);
          break;
        }
      }
    }
    // Finding where each event ends runs on a second thread, ahead of the parse.
    BackgroundScanner spans(scanner, options.helper_threads);
    while (spans.Next(&batch)) {
      for (size_t run = 0; run < batch.size(); run += kEventsPerRun) {
        const size_t count = std::min(kEventsPerRun, batch.size() - run);
        const EventSpan& last = batch[run + count - 1];
        const uint64_t end = last.offset + last.text.size();
        if (parser.ParseEvents(batch[run].offset,
                               content.substr(batch[run].offset, end - batch[run].offset))) {
          continue;
        }
        parse_one_by_one(&batch[run], count);
      }
      if (!batch.empty()) report_offset(batch.back().offset);
    }
  }
  if (scanner.truncated()) {
    writer.CountProblem("json_truncated", core::model::Severity::kDataLoss,
                        "the file ends inside an event or before the event array is closed; "
                        "what came before was imported (--lenient)",
                        1, DescribeOffset(content, scanner.truncated_at()));
  } else if (scanner.unterminated_array()) {
    writer.CountProblem("json_array_not_closed", core::model::Severity::kInfo,
                        "the event array has no closing ']' (allowed by the format)");
  }
  ReadTopLevel(scanner, trace, writer, input.label);
  writer.SetMeta("json.container", scanner.is_object_container() ? "object" : "array");
}

void ImportChromeJson(DecodedInput& input, core::store::TraceWriter& writer,
                      const ImportOptions& options) {
  // The import's big tables (events, records, sort keys, lookup tables) come and go one phase
  // after another. glibc serves a block freed from a large mapping by raising its threshold for
  // mapping blocks (up to 32 MB): the next tables then come from the heap, whose freed middle
  // stays resident, and the phases' peaks add up. A fixed threshold maps every block of 4 MB or
  // more on its own, so that freeing it gives its pages back at once (the builder trims the
  // heap after freeing its tables of small nodes).
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
  ParsedTrace trace;
  // Events are 150-400 bytes of JSON: reserving for 100-byte events avoids regrowing the vector
  // (pages of the reserve that are never used are never touched).
  trace.events.reserve(input.bytes.size() / 100);
  ParseChromeJson(input, writer, options, trace);
  // On the second core while the records are built and written: check the bracket kinds of the
  // pieces parsed without that check, then unmap or free the bytes (a few ms for 100 MB).
  std::string bad_bracket;
  auto check = [&bad_bracket, label = input.label, pieces = std::move(trace.unchecked_pieces),
                bytes = std::move(input.bytes)]() mutable {
    const std::string_view content = bytes.view();
    for (const PieceRange& piece : pieces) {
      if (auto bad = FindBracketMismatch(content.substr(piece.begin, piece.end - piece.begin))) {
        bad_bracket = fmt::format("{}: {}", DescribePlace(label, content, piece.begin + bad->offset),
                                  bad->what);
        break;
      }
      bytes.DropMappedPagesBefore(piece.end);
    }
    bytes = ByteBuffer();
  };
  input.bytes = ByteBuffer();
  // Without helper threads the check comes first; the build still runs, so that its error,
  // when it has one, is the one thrown, as with the check beside it.
  std::thread check_and_release;
  if (options.helper_threads) {
    check_and_release = std::thread(std::move(check));
  } else {
    check();
  }
  try {
    BuildTrace(
        trace, writer,
        [&](double f) {
          if (options.progress) options.progress(0.5 + 0.5 * f);
        },
        options.helper_threads);
  } catch (...) {
    if (check_and_release.joinable()) check_and_release.join();
    throw;
  }
  if (check_and_release.joinable()) check_and_release.join();
  // The caller commits the writer only when this returns: a bad file leaves no output.
  if (!bad_bracket.empty()) throw core::Error(bad_bracket);
}

}  // namespace importers::chrome_json
