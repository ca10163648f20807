// Pairing and ordering of parsed Chrome events before records are made: B/E per thread (in file
// order), nestable async b/e/n and legacy S/T/F (by id, in time order), and the time sort. The
// durations found are written into the begin events; the ends are marked consumed. What cannot
// be paired is counted in a ProblemTally.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_event.h"

namespace importers::chrome_json {

// Named import problems gathered while building, written to the trace at the end.
class ProblemTally {
 public:
  void Count(const std::string& name, core::model::Severity severity,
             std::string_view description, uint64_t offset, uint64_t count = 1);
  void WriteTo(core::store::TraceWriter& writer) const;

 private:
  struct Problem {
    core::model::Severity severity;
    std::string description;
    uint64_t count = 0;
    uint64_t first_offset = 0;
  };
  std::map<std::string, Problem> m_problems;
};

// X or B not folded into another event.
bool IsSlice(const ParsedEvent& e);

// Bytes naming (a, b, the event's id) for the pairing maps.
std::string PairingKey(uint32_t a, uint32_t b, const ParsedEvent& e);

// Pairs B/E; X without dur and unclosed B run to the end of the trace. Returns that end
// (the latest ts + dur of the file).
TimeNs PairBeginEnd(ParsedTrace& trace, ProblemTally& problems);

// Time order; at equal ts longer slices first, then file order.
void SortByTime(ParsedTrace& trace);

// Nestable async by (category, id), legacy by (name, id); needs time order.
void PairAsync(ParsedTrace& trace, ProblemTally& problems, TimeNs trace_end);

}  // namespace importers::chrome_json
