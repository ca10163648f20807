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

class ChromeEventParser {
 public:
  ChromeEventParser(core::store::TraceWriter& writer, ParsedTrace& trace);
  ~ChromeEventParser();

  // Parses the event at `offset` (whose JSON text is `text`, inside a buffer readable for at
  // least 64 bytes past its end) and appends it to the trace. Throws BadEvent.
  void Parse(uint64_t offset, std::string_view text);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace importers::chrome_json
