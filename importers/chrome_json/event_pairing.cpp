#include "importers/chrome_json/event_pairing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/store/two_thread_sort.h"

namespace importers::chrome_json {

using core::model::Severity;

void ProblemTally::Count(const std::string& name, Severity severity, std::string_view description,
                         uint64_t offset, uint64_t count) {
  auto [it, inserted] = m_problems.try_emplace(name);
  if (inserted) {
    it->second.severity = severity;
    it->second.description = description;
    it->second.first_offset = offset;
  }
  it->second.count += count;
}

void ProblemTally::WriteTo(core::store::TraceWriter& writer) const {
  for (const auto& [name, p] : m_problems) {
    writer.CountProblem(name, p.severity, p.description, p.count,
                        fmt::format("byte {}", p.first_offset));
  }
}

std::string PairingKey(uint32_t a, uint32_t b, const ParsedEvent& e) {
  std::string key(17, '\0');
  std::memcpy(key.data(), &a, 4);
  std::memcpy(key.data() + 4, &b, 4);
  std::memcpy(key.data() + 8, &e.id, 8);
  key[16] = (e.bits & kIdIsString) ? 1 : 0;
  return key;
}

bool IsSlice(const ParsedEvent& e) {
  return (e.ph == 'X' || e.ph == 'B') && !(e.bits & kConsumed);
}

// B/E pair per thread in file order: an E closes the most recent open B (trace-formats §1.5).
TimeNs PairBeginEnd(ParsedTrace& trace, ProblemTally& problems) {
  std::vector<std::vector<uint32_t>> open(trace.tracks.size());
  TimeNs end = 0;
  for (const ParsedEvent& e : trace.events) {
    end = std::max(end, e.ts + ((e.bits & kHasDuration) ? e.dur : 0));
  }
  const TimeNs trace_end = end;
  for (uint32_t i = 0; i < trace.events.size(); ++i) {
    ParsedEvent& e = trace.events[i];
    if (e.ph == 'X' && !(e.bits & kHasDuration)) {
      // Chrome writes X without dur for slices still running when tracing stopped.
      e.dur = trace_end - e.ts;
      e.bits |= kHasDuration;
      problems.Count(
          "json_complete_without_dur", Severity::kInfo,
          "'X' events without 'dur' (still running when tracing stopped): they run to the end "
          "of the trace",
          e.offset);
    } else if (e.ph == 'B') {
      open[e.track].push_back(i);
    } else if (e.ph == 'E') {
      e.bits |= kConsumed;
      auto& stack = open[e.track];
      if (stack.empty()) {
        problems.Count("json_unmatched_end", Severity::kInfo,
                       "'E' events with no open 'B' on their thread (dropped)", e.offset);
        continue;
      }
      ParsedEvent& begin = trace.events[stack.back()];
      stack.pop_back();
      if (e.ts < begin.ts) {
        problems.Count("json_end_before_begin", Severity::kError,
                       "'E' events earlier than the 'B' they close (slice kept with duration 0)",
                       e.offset);
      }
      begin.dur = std::max<TimeNs>(0, e.ts - begin.ts);
      begin.bits |= kHasDuration;
    }
  }
  for (auto& stack : open) {
    for (uint32_t i : stack) {
      ParsedEvent& begin = trace.events[i];
      begin.dur = trace_end - begin.ts;
      begin.bits |= kHasDuration;
      problems.Count("json_unclosed_begin", Severity::kInfo,
                     "'B' events never closed: the slice runs to the end of the trace",
                     begin.offset);
    }
  }
  return trace_end;
}

// Time order; at equal ts longer slices first so parents come before children, then file
// order (which keeps B/E of one thread as written).
// The keys are sorted on their own (a third of an event's size, so the sort moves less memory),
// then the events are moved once into place, cycle by cycle.
void SortByTime(ParsedTrace& trace) {
  struct Key {
    TimeNs ts;
    TimeNs slice_order;
    uint32_t seq;
    uint32_t index;
  };
  std::vector<ParsedEvent>& events = trace.events;
  std::vector<Key> keys(events.size());
  for (uint32_t i = 0; i < events.size(); ++i) {
    const ParsedEvent& e = events[i];
    keys[i] = {e.ts, IsSlice(e) ? -e.dur : TimeNs{0}, e.seq, i};
  }
  core::store::SortOnTwoThreads(keys, [](const Key& a, const Key& b) {
    return std::tie(a.ts, a.slice_order, a.seq, a.index) <
           std::tie(b.ts, b.slice_order, b.seq, b.index);
  });
  // Position i takes the event now at keys[i].index; follow each cycle of that permutation.
  std::vector<uint32_t> source(keys.size());
  for (uint32_t i = 0; i < keys.size(); ++i) source[i] = keys[i].index;
  keys.clear();
  keys.shrink_to_fit();
  for (uint32_t i = 0; i < source.size(); ++i) {
    if (source[i] == i) continue;
    ParsedEvent held = events[i];
    uint32_t j = i;
    while (source[j] != i) {
      const uint32_t k = source[j];
      events[j] = events[k];
      source[j] = j;
      j = k;
    }
    events[j] = held;
    source[j] = j;
  }
}

// Nestable b/e/n by (category, id); legacy S/F by (name, id). Durations go on the begin.
void PairAsync(ParsedTrace& trace, ProblemTally& problems, TimeNs trace_end) {
  std::unordered_map<std::string, std::vector<uint32_t>> nestable;
  std::unordered_map<std::string, uint32_t> legacy;
  for (uint32_t i = 0; i < trace.events.size(); ++i) {
    ParsedEvent& e = trace.events[i];
    const char ph = e.ph;
    if (ph != 'b' && ph != 'e' && ph != 'n' && ph != 'S' && ph != 'F' && ph != 'T' && ph != 'p') {
      continue;
    }
    if (!(e.bits & kHasId)) {
      e.bits |= kConsumed;
      problems.Count("json_async_without_id", Severity::kError,
                     "async events without an 'id' (dropped)", e.offset);
      continue;
    }
    if (ph == 'b' || ph == 'e' || ph == 'n') {
      const std::string key = PairingKey(e.cat, 0, e);
      if (ph == 'n') {
        e.dur = 0;
        e.bits |= kHasDuration;
        continue;
      }
      auto& stack = nestable[key];
      if (ph == 'b') {
        stack.push_back(i);
        continue;
      }
      e.bits |= kConsumed;
      // An 'e' closes the innermost open 'b' of the same name (any, when it has no name).
      auto match = std::find_if(stack.rbegin(), stack.rend(), [&](uint32_t j) {
        return e.name == 0 || trace.events[j].name == e.name;
      });
      if (match == stack.rend()) {
        problems.Count("json_async_unmatched_end", Severity::kInfo,
                       "nestable async 'e' events with no open 'b' (dropped)", e.offset);
        continue;
      }
      ParsedEvent& begin = trace.events[*match];
      begin.dur = e.ts - begin.ts;
      begin.bits |= kHasDuration;
      stack.erase(std::next(match).base());
      continue;
    }
    const std::string key = PairingKey(0, e.name, e);
    if (ph == 'T' || ph == 'p') {
      e.bits |= kConsumed;
      problems.Count("json_async_steps", Severity::kInfo,
                     "legacy async 'T'/'p' steps (counted; the S..F slice is kept)", e.offset);
      continue;
    }
    if (ph == 'S') {
      auto [it, inserted] = legacy.try_emplace(key, i);
      if (!inserted) {
        e.bits |= kConsumed;
        problems.Count("json_async_duplicate_start", Severity::kError,
                       "legacy async 'S' with an id already open (dropped)", e.offset);
      }
      continue;
    }
    e.bits |= kConsumed;  // 'F'
    auto it = legacy.find(key);
    if (it == legacy.end()) {
      problems.Count("json_async_unmatched_end", Severity::kInfo,
                     "async end events with no open start (dropped)", e.offset);
      continue;
    }
    ParsedEvent& begin = trace.events[it->second];
    begin.dur = e.ts - begin.ts;
    begin.bits |= kHasDuration;
    legacy.erase(it);
  }
  auto close_at_end = [&](uint32_t i) {
    ParsedEvent& begin = trace.events[i];
    begin.dur = trace_end - begin.ts;
    begin.bits |= kHasDuration;
    problems.Count("json_async_unclosed", Severity::kInfo,
                   "async slices never ended: they run to the end of the trace", begin.offset);
  };
  for (auto& [key, stack] : nestable) {
    for (uint32_t i : stack) close_at_end(i);
  }
  for (auto& [key, i] : legacy) close_at_end(i);
}

}  // namespace importers::chrome_json
