// Parses one trace event (a byte span found by JsonContainerScanner) with simdjson On Demand
// into a ParsedEvent, keeping only what the builder needs: phase, times, track, name, category,
// ids, flow fields, and the arguments that carry meaning (counter values, metadata, Kineto
// correlation and synchronisation arguments). Metadata (M) events update the track tables at
// once. Bad events throw BadEvent; the caller decides between failing and --lenient skipping.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_event.h"

namespace importers::chrome_json {

// A malformed event: `offset` is the byte offset of the problem (the event's start when the
// exact place is not known).
struct BadEvent {
  uint64_t offset;
  std::string message;
};

// Turns a JSON number token holding microseconds ("12", "3.011", "1.5e3") into integer
// nanoseconds without going through a double when there is no exponent (Kineto's "%d.%03d" is
// exact). Digits past the third decimal are rounded half up. Returns an error message, or empty.
std::string MicrosToNs(std::string_view token, int64_t* ns);

// What a parser of parts hands over (ChromeEventParser::TakePart), in its own ids.
struct ParsedPart {
  uint8_t source = 0;  // which parser of parts it came from (0 or 1; the caller sets it)
  std::vector<ParsedEvent> events;
  std::vector<CounterValue> counter_values;
  std::vector<KinetoArgs> kineto_args;
  std::vector<ExportArgs> export_args;
  std::vector<std::string> new_strings;  // string ids from the previous part's end on
  std::vector<std::string> new_locals;   // local strings likewise
  std::vector<Track> tracks;             // all, with the metadata set since the previous part
  std::vector<ProcessEntry> processes;   // likewise
};

class ChromeEventParser {
 public:
  ChromeEventParser(core::store::TraceWriter& writer, ParsedTrace& trace);
  ~ChromeEventParser();

  // Parses the event at `offset` (whose JSON text is `text`, inside a buffer readable for at
  // least 64 bytes past its end) and appends it to the trace. Throws BadEvent.
  void Parse(uint64_t offset, std::string_view text);

  // Parses `text`, consecutive events of the array and the commas between them (the first
  // event starting at `offset`), as one document: one simdjson pass for many events instead of
  // one per event. Returns false, with no event of the text kept, when any of them is malformed
  // or the text is not such a list; the caller then finds the events with the scanner and
  // parses them one by one with Parse() to name the bad event and its place.
  bool ParseEvents(uint64_t offset, std::string_view text);

  // A parser of parts: parses events on another thread, without the writer, into tables of its
  // own (string ids, local strings, tracks and processes are its own). TakePart() hands over
  // what was parsed since the last call (with the strings and tracks new since then) and must
  // not run at the same time as ParseEvents(); the parser with the writer then Merge()s the
  // parts of each parser of parts (two at most) in the order they were taken.
  ChromeEventParser();
  void TakePart(ParsedPart& part);
  // Appends `part`'s events as if they had been parsed here after everything parsed so far.
  void Merge(const ParsedPart& part);
  // Before merging parts of new parsers of parts: forgets the ids of the former ones.
  void ForgetParts();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace importers::chrome_json
