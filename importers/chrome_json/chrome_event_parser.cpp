#include "importers/chrome_json/chrome_event_parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "core/store/string_hash.h"

namespace importers::chrome_json {
namespace {

namespace od = simdjson::ondemand;

// The largest ts / dur we accept: 3e15 µs (3e18 ns, the year 2065 on an epoch clock); anything
// above is a broken writer. With baseTimeNanoseconds also capped at 3e18 (the importer checks),
// ts + dur + base stays inside int64.
constexpr int64_t kMaxMicros = 3'000'000'000'000'000;

struct KeyHash {
  size_t operator()(const std::pair<IdKey, IdKey>& k) const {
    // Mixed as unsigned: a pid of 17 digits times the multiplier overflows an int64 (UB).
    return std::hash<uint64_t>{}(static_cast<uint64_t>(k.first.value) * 1000003u +
                                 static_cast<uint64_t>(k.second.value)) ^
           (k.first.is_string ? 0x9e3779b9 : 0) ^ (k.second.is_string ? 0x7f4a7c15 : 0);
  }
};
struct PidHash {
  size_t operator()(const IdKey& k) const {
    return std::hash<int64_t>{}(k.value) ^ (k.is_string ? 0x9e3779b9 : 0);
  }
};

bool IsPacketCategory(std::string_view cat) {
  return cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "Kernel" ||
         cat == "Memcpy" || cat == "Memset";
}
// MTIA device events: a device stream's packets, event records and event waits.
bool IsMtiaDeviceCategory(std::string_view cat) { return cat == "mtia_ccp_events"; }
bool IsKinetoCategory(std::string_view cat) {
  return IsPacketCategory(cat) || IsMtiaDeviceCategory(cat) || cat == "mtia_runtime" ||
         cat == "cuda_sync" || cat == "cuda_runtime" ||
         cat == "cuda_driver" || cat == "Runtime" || cat == "Driver" || cat == "fence_signal" ||
         cat == "fence_wait" || cat == "cpu_wait";
}

// Decimal text of an id: numbers as they are, "0x1F" as 31, "0042" as 42; other strings kept.
std::string NormaliseId(std::string_view text) {
  uint64_t v = 0;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    auto [p, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
    if (ec == std::errc() && p == text.data() + text.size()) return std::to_string(v);
  } else if (!text.empty()) {
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 10);
    if (ec == std::errc() && p == text.data() + text.size()) return std::to_string(v);
  }
  return std::string(text);
}

// A finite double as an int64, held at the type's limits (converting one beyond them is
// undefined; found by fuzz_chrome_json, an args number of 3.6e79). The integers read from args
// are ids, streams, sort indexes and fence values, never that large; every numeric arg of a
// Kineto event is converted on the way, FLOPs and bytes included.
int64_t HeldToInt64(double d) {
  if (d >= 9223372036854775808.0) return INT64_MAX;
  if (d < -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(d);
}

// The same for a fence value (a UINT64): negative ones are 0.
uint64_t HeldToUint64(double d) {
  if (d >= 18446744073709551616.0) return UINT64_MAX;
  return static_cast<uint64_t>(std::max(0.0, d));
}

}  // namespace

std::string MicrosToNs(std::string_view token, int64_t* ns) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                            token.back() == '\t')) {
    token.remove_suffix(1);
  }
  if (token.empty()) return "empty number";
  if (token[0] == '-') return "negative time";
  size_t i = 0;
  int64_t whole = 0;
  size_t whole_digits = 0;
  while (i < token.size() && token[i] >= '0' && token[i] <= '9') {
    if (whole_digits++ > 17) return fmt::format("absurd time {} µs", token);
    whole = whole * 10 + (token[i] - '0');
    ++i;
  }
  if (whole_digits == 0) return fmt::format("'{}' is not a number", token);
  int64_t frac_ns = 0;
  if (i < token.size() && token[i] == '.') {
    ++i;
    int digits = 0;
    bool round_up = false;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9') {
      if (digits < 3) {
        frac_ns = frac_ns * 10 + (token[i] - '0');
      } else if (digits == 3) {
        round_up = token[i] >= '5';
      }
      ++digits;
      ++i;
    }
    if (digits == 0) return fmt::format("'{}' is not a number", token);
    for (int d = digits; d < 3; ++d) frac_ns *= 10;
    if (round_up) ++frac_ns;
  }
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    // Exponent notation: rare (some writers print large doubles this way); go through double.
    double micros = std::strtod(std::string(token).c_str(), nullptr);
    if (!std::isfinite(micros)) return fmt::format("'{}' is not a finite number", token);
    if (micros < 0) return "negative time";
    if (micros > static_cast<double>(kMaxMicros)) return fmt::format("absurd time {} µs", token);
    *ns = std::llround(micros * 1000.0);
    return {};
  }
  if (i != token.size()) return fmt::format("'{}' is not a number", token);
  if (whole > kMaxMicros) return fmt::format("absurd time {} µs", token);
  *ns = whole * 1000 + frac_ns;
  return {};
}

struct ChromeEventParser::Impl {
  // Null for a parser of a part (string ids are then local to the part, see Merge).
  core::store::TraceWriter* writer;
  ParsedTrace* trace;
  od::parser parser;
  std::unordered_map<std::string, StringId, core::store::TransparentStringHash, std::equal_to<>>
      writer_strings;
  std::unordered_map<std::string, uint32_t, core::store::TransparentStringHash, std::equal_to<>>
      local_strings;
  std::unordered_map<IdKey, uint32_t, PidHash> process_of_pid;
  std::unordered_map<std::pair<IdKey, IdKey>, uint32_t, KeyHash> track_of_pair;
  // Argument values gathered before the phase is known.
  struct NumberArg {
    std::string key;
    double value;
  };
  std::vector<NumberArg> numbers;
  size_t number_count = 0;
  std::string arg_name, arg_labels;
  int64_t arg_sort_index = 0;
  bool has_sort_index = false;
  KinetoArgs kineto;
  bool has_kineto = false;
  ExportArgs exported;
  bool has_exported = false;
  std::string last_category;
  StringId last_category_id = 0;
  uint32_t last_track = kNone;
  std::string last_id_text;  // the last string pid / tid and its local string id
  uint32_t last_id_local = kNone;
  std::vector<char> run_buffer;  // a run of events as one array document (ParseRun)

  Impl(core::store::TraceWriter* w, ParsedTrace* t) : writer(w), trace(t) {}

  // A parser of parts keeps its tables here across pieces; TakePart hands the news over.
  std::unique_ptr<ParsedTrace> own_tables;
  size_t handed_strings = 1, handed_locals = 0;

  void UseOwnTables() {
    own_tables = std::make_unique<ParsedTrace>();
    trace = own_tables.get();
    trace->writer_strings.emplace_back();  // id 0 is "no string"
  }

  void TakePart(ParsedPart& part) {
    part.events.swap(trace->events);
    part.counter_values.swap(trace->counter_values);
    part.kineto_args.swap(trace->kineto_args);
    part.export_args.swap(trace->export_args);
    trace->events.clear();
    trace->counter_values.clear();
    trace->kineto_args.clear();
    trace->export_args.clear();
    part.new_strings.assign(trace->writer_strings.begin() + handed_strings,
                            trace->writer_strings.end());
    handed_strings = trace->writer_strings.size();
    part.new_locals.assign(trace->local_strings.begin() + handed_locals,
                           trace->local_strings.end());
    handed_locals = trace->local_strings.size();
    part.tracks = trace->tracks;
    part.processes = trace->processes;
    for (Track& track : trace->tracks) track.metadata = 0;
    for (ProcessEntry& process : trace->processes) process.metadata = 0;
  }

  // Ids of a parser of parts' strings, local strings and tracks here (Merge), per source.
  struct SourceIds {
    std::vector<StringId> strings{0};
    std::vector<uint32_t> locals, tracks;
  };
  SourceIds sources[2];

  StringId Intern(std::string_view text) {
    auto it = writer_strings.find(text);
    if (it != writer_strings.end()) return it->second;
    StringId id = writer ? writer->Intern(text)
                         : static_cast<StringId>(trace->writer_strings.size());
    writer_strings.emplace(std::string(text), id);
    if (trace->writer_strings.size() <= id) trace->writer_strings.resize(id + 1);
    trace->writer_strings[id] = std::string(text);
    return id;
  }
  // Categories come from a small set and repeat in runs: one remembered entry saves the hash.
  StringId InternCategory(std::string_view text) {
    if (last_category_id != 0 && text == last_category) return last_category_id;
    last_category_id = Intern(text);
    last_category.assign(text);
    return last_category_id;
  }
  uint32_t Local(std::string_view text) {
    auto it = local_strings.find(text);
    if (it != local_strings.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(trace->local_strings.size());
    trace->local_strings.emplace_back(text);
    local_strings.emplace(std::string(text), id);
    return id;
  }

  uint32_t ProcessOf(const IdKey& pid) {
    auto it = process_of_pid.find(pid);
    if (it != process_of_pid.end()) return it->second;
    uint32_t index = static_cast<uint32_t>(trace->processes.size());
    ProcessEntry entry;
    entry.pid = pid;
    trace->processes.push_back(entry);
    process_of_pid.emplace(pid, index);
    return index;
  }
  uint32_t TrackOf(const IdKey& pid, const IdKey& tid) {
    // Events of one thread come in runs: check the last track before hashing.
    if (last_track != kNone && trace->tracks[last_track].pid == pid &&
        trace->tracks[last_track].tid == tid) {
      return last_track;
    }
    last_track = TrackOfUncached(pid, tid);
    return last_track;
  }
  uint32_t TrackOfUncached(const IdKey& pid, const IdKey& tid) {
    auto key = std::make_pair(pid, tid);
    auto it = track_of_pair.find(key);
    if (it != track_of_pair.end()) return it->second;
    uint32_t index = static_cast<uint32_t>(trace->tracks.size());
    Track track;
    track.pid = pid;
    track.tid = tid;
    track.process = ProcessOf(pid);
    trace->tracks.push_back(track);
    track_of_pair.emplace(key, index);
    return index;
  }

  [[noreturn]] static void Bad(uint64_t offset, std::string message) {
    throw BadEvent{offset, std::move(message)};
  }
  static const char* Describe(simdjson::error_code e) { return simdjson::error_message(e); }

  // The next member of an object: its field (for the value) and unescaped key.
  static std::string_view ReadKey(simdjson::simdjson_result<od::field>&& result, od::field* field,
                                  uint64_t offset, std::string_view where) {
    std::string_view key;
    if (auto e = std::move(result).get(*field)) {
      Bad(offset, fmt::format("{}invalid JSON: {}", where, Describe(e)));
    }
    // A key without escapes (all of them, in practice) is its raw text: no copy into simdjson's
    // string buffer. The input is padded, and stage 1 has found the key's closing quote.
    const char* raw = field->key().raw();
    const char* p = raw;
    while (*p != '"' && *p != '\\') ++p;
    if (*p == '"') return std::string_view(raw, static_cast<size_t>(p - raw));
    if (auto e = field->unescaped_key().get(key)) {
      Bad(offset, fmt::format("{}invalid JSON: {}", where, Describe(e)));
    }
    return key;
  }

  IdKey ReadPidOrTid(od::value& v, uint64_t offset, std::string_view what) {
    od::json_type type;
    if (auto e = v.type().get(type)) Bad(offset, fmt::format("'{}': {}", what, Describe(e)));
    IdKey key;
    if (type == od::json_type::number) {
      int64_t n = 0;
      if (v.get_int64().get(n)) {
        // A float pid/tid ("1.0") is accepted when it is integral.
        double d = 0;
        if (v.get_double().get(d) || d != std::floor(d) || std::fabs(d) > 9e18) {
          Bad(offset, fmt::format("'{}' is not an integer", what));
        }
        n = static_cast<int64_t>(d);
      }
      key.value = n;
    } else if (type == od::json_type::string) {
      std::string_view s;
      if (auto e = v.get_string().get(s)) Bad(offset, fmt::format("'{}': {}", what, Describe(e)));
      // String pids / tids (PyTorch writes tids as strings) repeat in runs: one remembered
      // entry saves the hash.
      if (s != last_id_text || last_id_local == kNone) {
        last_id_local = Local(s);
        last_id_text.assign(s);
      }
      key.value = last_id_local;
      key.is_string = true;
    } else {
      Bad(offset, fmt::format("'{}' must be a number or a string", what));
    }
    return key;
  }

  std::string ReadIdText(od::value& v, uint64_t offset, std::string_view what) {
    od::json_type type;
    if (auto e = v.type().get(type)) Bad(offset, fmt::format("'{}': {}", what, Describe(e)));
    if (type == od::json_type::number) {
      std::string_view raw = v.raw_json_token();
      while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' ||
                              raw.back() == '\t')) {
        raw.remove_suffix(1);
      }
      return NormaliseId(raw);
    }
    if (type == od::json_type::string) {
      std::string_view s;
      if (auto e = v.get_string().get(s)) Bad(offset, fmt::format("'{}': {}", what, Describe(e)));
      return NormaliseId(s);
    }
    Bad(offset, fmt::format("'{}' must be a number or a string", what));
  }

  TimeNs ReadMicros(od::value& v, uint64_t offset, std::string_view what) {
    od::json_type type;
    if (auto e = v.type().get(type)) Bad(offset, fmt::format("'{}': {}", what, Describe(e)));
    if (type != od::json_type::number) {
      Bad(offset, fmt::format("'{}' must be a number (microseconds)", what));
    }
    int64_t ns = 0;
    std::string error = MicrosToNs(v.raw_json_token(), &ns);
    if (!error.empty()) Bad(offset, fmt::format("'{}': {}", what, error));
    return ns;
  }

  std::string_view ReadString(od::value& v, uint64_t offset, std::string_view what) {
    std::string_view s;
    if (auto e = v.get_string().get(s)) {
      Bad(offset, fmt::format("'{}' must be a string ({})", what, Describe(e)));
    }
    return s;
  }

  // Reads `args`. `ph` is the phase when already seen (0 otherwise); `kineto_cat` says whether
  // the category (when seen) is one the GPU mapping reads.
  void ReadArgs(od::value& v, char ph, int kineto_cat, uint64_t offset) {
    od::object args;
    if (v.get_object().get(args)) return;  // non-object args carry nothing we read
    for (auto field_result : args) {
      od::field field;
      const std::string_view key = ReadKey(std::move(field_result), &field, offset, "args: ");
      od::value value = field.value();
      od::json_type type;
      if (auto e = value.type().get(type)) Bad(offset, fmt::format("args.{}: {}", key, Describe(e)));
      if (type == od::json_type::number) {
        // One read of the token gives both readings: the double (counters) and, for integers,
        // the exact 64-bit value (correlation ids, fence values).
        std::string_view token = value.raw_json_token();
        while (!token.empty() && (token.back() == ' ' || token.back() == '\n' ||
                                  token.back() == '\r' || token.back() == '\t')) {
          token.remove_suffix(1);
        }
        uint64_t exact = 0;
        auto as_int = std::from_chars(token.data(), token.data() + token.size(), exact);
        const bool is_exact = as_int.ec == std::errc() && as_int.ptr == token.data() + token.size();
        // Most arguments are non-negative integers: their double is the integer rounded to
        // nearest, which the conversion gives exactly as from_chars would; only the others
        // need the (slower) decimal parse.
        double d = static_cast<double>(exact);
        if (!is_exact) {
          auto parsed = std::from_chars(token.data(), token.data() + token.size(), d);
          if (parsed.ec != std::errc() || parsed.ptr != token.data() + token.size() ||
              !std::isfinite(d)) {
            Bad(offset, fmt::format("args.{}: '{}' is not a finite number", key, token));
          }
        }
        if (ph == 0 || ph == 'C') {
          if (number_count == numbers.size()) numbers.push_back({});
          numbers[number_count].key.assign(key);
          numbers[number_count].value = d;
          ++number_count;
        }
        if (ph == 'M' || ph == 0) {
          if (key == "sort_index") arg_sort_index = HeldToInt64(d), has_sort_index = true;
        }
        if (kineto_cat != 0 && (ph == 0 || ph == 'X')) {
          // Integers exactly (ns timestamps exceed a double's 53 bits), others through d.
          const int64_t n = is_exact && exact <= static_cast<uint64_t>(INT64_MAX)
                                ? static_cast<int64_t>(exact)
                                : HeldToInt64(d);
          // correlation_id: the XLA profiler's (xla_trace_events.h).
          if (key == "correlation" || key == "correlation_id") {
            kineto.correlation = n, has_kineto = true;
          }
          else if (key == "stream") kineto.stream = n, has_kineto = true;
          // MTIA runtime calls name their stream stream_id (recordEvent as a string: unread).
          else if (key == "stream_id") kineto.stream = n, has_kineto = true;
          else if (key == "device") kineto.device = static_cast<int32_t>(n), has_kineto = true;
          else if (key == "wait_on_stream") kineto.wait_on_stream = n, has_kineto = true;
          else if (key == "fence") exported.fence = n, has_kineto = has_exported = true;
          else if (key == "signal_id") exported.signal_id = n, has_kineto = has_exported = true;
          else if (key == "submitted_ns") {
            exported.submitted_ns = n, has_kineto = has_exported = true;
          } else if (key == "open") {
            exported.open = n != 0, has_kineto = has_exported = true;
          } else if (key == "not_started") {
            exported.not_started = n != 0, has_kineto = has_exported = true;
          } else if (key == "value") {
            // Fence values are UINT64: read them exactly, not through the double.
            exported.fence_value = is_exact ? exact : HeldToUint64(d);
            has_kineto = has_exported = true;
          } else if (key == "wait_on_cuda_event_record_corr_id") {
            kineto.wait_on_record_correlation = n, has_kineto = true;
          } else if (key == "wait_on_cuda_event_id") {
            kineto.wait_on_event_id = n, has_kineto = true;
          }
        }
      } else if (type == od::json_type::string && (ph == 0 || ph == 'M')) {
        if (key == "name") arg_name = ReadString(value, offset, "args.name");
        else if (key == "labels") arg_labels = ReadString(value, offset, "args.labels");
      }
      if (type == od::json_type::string && key == "correlation_id" && kineto_cat != 0 &&
          (ph == 0 || ph == 'X')) {
        // The XLA profiler writes every argument as a string: "correlation_id": "1234".
        const std::string_view text = ReadString(value, offset, "args.correlation_id");
        int64_t n = -1;
        auto parsed = std::from_chars(text.data(), text.data() + text.size(), n);
        if (parsed.ec == std::errc() && parsed.ptr == text.data() + text.size() && n >= 0) {
          kineto.correlation = n, has_kineto = true;
        }
      }
    }
  }

  void ApplyMetadata(std::string_view name, uint32_t track_index) {
    Track& track = trace->tracks[track_index];
    ProcessEntry& process = trace->processes[track.process];
    if (name == "process_name") {
      process.name = arg_name;
      process.metadata |= kNameSet;
    } else if (name == "process_labels") {
      process.labels = arg_labels;
      process.metadata |= kLabelsSet;
      // Kineto labels each device "GPU n" (ROCm too).
      if (arg_labels.rfind("GPU ", 0) == 0) process.gpu_device = true;
    } else if (name == "process_sort_index") {
      if (has_sort_index) {
        process.sort_index = static_cast<int32_t>(arg_sort_index);
        process.metadata |= kSortIndexSet;
      }
    } else if (name == "thread_name") {
      track.name = arg_name;
      track.metadata |= kNameSet;
    } else if (name == "thread_sort_index") {
      if (has_sort_index) {
        track.sort_index = static_cast<int32_t>(arg_sort_index);
        track.has_sort_index = true;
        track.metadata |= kSortIndexSet;
      }
    }
  }

  void Parse(uint64_t offset, std::string_view text) {
    od::document doc;
    simdjson::padded_string_view view(text.data(), text.size(), text.size() + 64);
    if (auto e = parser.iterate(view).get(doc)) {
      Bad(offset, fmt::format("invalid JSON: {}", Describe(e)));
    }
    od::object obj;
    if (auto e = doc.get_object().get(obj)) {
      Bad(offset, e == simdjson::INCORRECT_TYPE ? std::string("an event must be a JSON object")
                                                : fmt::format("invalid JSON: {}", Describe(e)));
    }
    ParseObject(obj, offset);
  }

  bool ParseEvents(uint64_t offset, std::string_view text) {
    if (text.empty()) return true;
    // Wrapped in brackets, the events and the commas between them are one JSON array.
    const size_t size = text.size() + 2;
    if (run_buffer.size() < size + simdjson::SIMDJSON_PADDING) {
      run_buffer.resize(size + simdjson::SIMDJSON_PADDING + (size >> 2));
    }
    run_buffer[0] = '[';
    std::memcpy(run_buffer.data() + 1, text.data(), text.size());
    run_buffer[size - 1] = ']';
    // Undo what a failed run added, so that the caller can parse it again event by event. (The
    // tracks and strings it met stay: parsing the same events again meets them in the same
    // order, so the tables come out the same.)
    const size_t events_before = trace->events.size();
    const size_t counters_before = trace->counter_values.size();
    const size_t kineto_before = trace->kineto_args.size();
    const size_t exported_before = trace->export_args.size();
    auto fail = [&] {
      trace->events.resize(events_before);
      trace->counter_values.resize(counters_before);
      trace->kineto_args.resize(kineto_before);
      trace->export_args.resize(exported_before);
      return false;
    };
    od::document doc;
    simdjson::padded_string_view view(run_buffer.data(), size, run_buffer.size());
    od::array array;
    if (parser.iterate(view).get(doc) || doc.get_array().get(array)) return fail();
    // The event's place in the content: its first byte in the buffer, less the '['.
    const char* origin = run_buffer.data() + 1;
    try {
      for (auto element : array) {
        od::value value;
        od::object obj;
        if (std::move(element).get(value)) return fail();
        const uint64_t at = offset + static_cast<uint64_t>(value.raw_json_token().data() - origin);
        if (value.get_object().get(obj)) return fail();
        ParseObject(obj, at);
      }
    } catch (const BadEvent&) {
      return fail();
    }
    // The array must end at the closing bracket added above: anything after an earlier ']' (the
    // event array ended inside the text) is not an event of it.
    const char* rest = nullptr;
    if (doc.current_location().get(rest) != simdjson::OUT_OF_BOUNDS) return fail();
    return true;
  }

  // Appends a part taken from a parser of parts as if its events had been parsed here, in order.
  void Merge(const ParsedPart& part) {
    std::vector<StringId>& part_strings = sources[part.source].strings;
    std::vector<uint32_t>& part_locals = sources[part.source].locals;
    std::vector<uint32_t>& part_tracks = sources[part.source].tracks;
    for (const std::string& text : part.new_strings) part_strings.push_back(Intern(text));
    for (const std::string& text : part.new_locals) part_locals.push_back(Local(text));
    auto key_of = [&](IdKey key) {
      if (key.is_string) key.value = part_locals[static_cast<size_t>(key.value)];
      return key;
    };
    // Tracks in the order the other parser met them create processes and tracks in the order
    // the events would have; metadata later in the file replaces earlier values, flags add up.
    for (size_t i = 0; i < part.tracks.size(); ++i) {
      const Track& from = part.tracks[i];
      if (i == part_tracks.size()) {
        part_tracks.push_back(TrackOfUncached(key_of(from.pid), key_of(from.tid)));
      }
      Track& to = trace->tracks[part_tracks[i]];
      if (from.metadata & kNameSet) to.name = from.name;
      if (from.metadata & kSortIndexSet) {
        to.sort_index = from.sort_index;
        to.has_sort_index = true;
      }
      to.metadata |= from.metadata;
      to.gpu_stream |= from.gpu_stream;
    }
    for (const ProcessEntry& from : part.processes) {
      if (!from.metadata && !from.gpu_device) continue;
      ProcessEntry& to = trace->processes[ProcessOf(key_of(from.pid))];
      if (from.metadata & kNameSet) to.name = from.name;
      if (from.metadata & kLabelsSet) to.labels = from.labels;
      if (from.metadata & kSortIndexSet) to.sort_index = from.sort_index;
      to.metadata |= from.metadata;
      to.gpu_device |= from.gpu_device;
    }
    const uint32_t counters = static_cast<uint32_t>(trace->counter_values.size());
    for (const CounterValue& value : part.counter_values) {
      trace->counter_values.push_back({part_strings[value.key], value.value});
    }
    const uint32_t kineto = static_cast<uint32_t>(trace->kineto_args.size());
    const uint32_t exported_base = static_cast<uint32_t>(trace->export_args.size());
    for (KinetoArgs args : part.kineto_args) {
      if (args.exported != kNone) args.exported += exported_base;
      trace->kineto_args.push_back(args);
    }
    trace->export_args.insert(trace->export_args.end(), part.export_args.begin(),
                              part.export_args.end());
    for (ParsedEvent ev : part.events) {
      ev.seq = static_cast<uint32_t>(trace->events.size());
      ev.track = part_tracks[ev.track];
      ev.name = part_strings[ev.name];
      ev.cat = part_strings[ev.cat];
      if (ev.bits & kIdIsString) ev.id = part_locals[ev.id];
      if (ev.bind_id != kNone) ev.bind_id = part_locals[ev.bind_id];
      if (ev.extra != kNone) ev.extra += ev.ph == 'C' ? counters : kineto;
      trace->events.push_back(ev);
    }
    last_track = kNone;
  }

  // What ParseObject gathers from one event's fields before it resolves names, ids and tracks.
  // The string views point into the parser's string buffer: valid until the next event.
  struct ObjectFields {
    bool has_ts = false, has_pid = false, has_tid = false;
    IdKey pid, tid;
    std::string_view name, cat, scope_text;
    bool has_name = false, has_cat = false;
    std::string id_text, bind_text;
    bool has_id = false, has_bind = false, id2_local = false;
    int kineto_cat = 1;  // unknown until cat is read: gather the Kineto args anyway
  };

  void ParseObject(od::object& obj, uint64_t offset) {
    ParsedEvent ev;
    ev.offset = offset;
    ev.seq = static_cast<uint32_t>(trace->events.size());
    ObjectFields f;
    number_count = 0;
    arg_name.clear();
    arg_labels.clear();
    has_sort_index = false;
    has_kineto = false;
    kineto = KinetoArgs{};
    has_exported = false;
    exported = ExportArgs{};
    bool empty = true;
    for (auto field_result : obj) {
      od::field field;
      const std::string_view key = ReadKey(std::move(field_result), &field, offset, "");
      od::value v = field.value();
      ReadField(key, v, ev, f, offset);
      empty = false;
    }
    // The XLA profiler ends its traceEvents with an empty object (so that every event it
    // writes can end with a comma): nothing, not a damaged event.
    if (empty) return;
    if (ev.ph == 0) Bad(offset, "the event has no 'ph'");
    if (!f.has_ts && ev.ph != 'M') Bad(offset, "the event has no 'ts'");
    if (!f.has_pid) f.pid = IdKey{};
    // Counters are per process: their tid does not matter (trace-formats §1.5).
    if (!f.has_tid || ev.ph == 'C') f.tid = IdKey{};
    ev.track = TrackOf(f.pid, f.tid);
    ev.name = f.has_name ? Intern(f.name) : 0;
    ev.cat = f.has_cat ? InternCategory(f.cat) : 0;
    if (f.has_id) ResolveId(ev, f);
    if (f.has_bind) ev.bind_id = Local(f.bind_text);
    if (KeepByPhase(ev, f)) trace->events.push_back(ev);
  }

  // One field of an event object, by key (switched on its length first: the common keys are
  // short and distinct by length). Inlined into ParseObject's loop: called once per field, it
  // is the importer's hottest code, and inlined the key comparisons fold into a few compares.
  [[gnu::always_inline]] void ReadField(std::string_view key, od::value& v, ParsedEvent& ev,
                                        ObjectFields& f, uint64_t offset) {
    switch (key.size()) {
      case 2:
        if (key == "ph") {
          std::string_view ph = ReadString(v, offset, "ph");
          if (ph.size() != 1) Bad(offset, fmt::format("'ph' \"{}\" is not one letter", ph));
          ev.ph = ph[0];
        } else if (key == "ts") {
          ev.ts = ReadMicros(v, offset, "ts");
          f.has_ts = true;
        } else if (key == "id") {
          f.id_text = ReadIdText(v, offset, "id");
          f.has_id = true;
        } else if (key == "bp") {
          if (ReadString(v, offset, "bp") == "e") ev.bits |= kBindEnclosing;
        }
        break;
      case 1:
        if (key == "s") {
          std::string_view s = ReadString(v, offset, "s");
          ev.scope = s == "g" ? 2 : s == "p" ? 1 : 0;
        }
        break;
      case 3:
        if (key == "dur") {
          ev.dur = ReadMicros(v, offset, "dur");
          ev.bits |= kHasDuration;
        } else if (key == "pid") {
          f.pid = ReadPidOrTid(v, offset, "pid");
          f.has_pid = true;
        } else if (key == "tid") {
          f.tid = ReadPidOrTid(v, offset, "tid");
          f.has_tid = true;
        } else if (key == "cat") {
          f.cat = ReadString(v, offset, "cat");
          f.has_cat = true;
          f.kineto_cat = IsKinetoCategory(f.cat) ? 1 : 0;
        } else if (key == "id2") {
          ReadId2(v, f, offset);
        }
        break;
      case 4:
        if (key == "name") {
          f.name = ReadString(v, offset, "name");
          f.has_name = true;
        } else if (key == "args") {
          // Only counters, metadata and the Kineto GPU events have arguments we read; when the
          // phase and category are already known the rest are skipped unread.
          const bool wanted = ev.ph == 0 || ev.ph == 'C' || ev.ph == 'M' ||
                              (ev.ph == 'X' && f.kineto_cat != 0);
          if (wanted) ReadArgs(v, ev.ph, f.kineto_cat, offset);
        }
        break;
      case 5:
        if (key == "scope") f.scope_text = ReadString(v, offset, "scope");
        break;
      case 7:
        if (key == "bind_id") {
          f.bind_text = ReadIdText(v, offset, "bind_id");
          f.has_bind = true;
        } else if (key == "flow_in") {
          bool b = false;
          if (v.get_bool().get(b)) Bad(offset, "'flow_in' must be true or false");
          if (b) ev.bits |= kFlowIn;
        }
        break;
      case 8:
        if (key == "flow_out") {
          bool b = false;
          if (v.get_bool().get(b)) Bad(offset, "'flow_out' must be true or false");
          if (b) ev.bits |= kFlowOut;
        }
        break;
      default:
        break;
    }
  }

  // "id2": {"local": ...} or {"global": ...}.
  void ReadId2(od::value& v, ObjectFields& f, uint64_t offset) {
    od::object id2;
    if (v.get_object().get(id2)) Bad(offset, "'id2' must be an object");
    for (auto member : id2) {
      od::field idf;
      if (std::move(member).get(idf)) Bad(offset, "'id2': invalid JSON");
      std::string_view k;
      if (idf.unescaped_key().get(k)) Bad(offset, "'id2': invalid JSON");
      od::value iv = idf.value();
      f.id_text = ReadIdText(iv, offset, "id2");
      f.id2_local = k == "local";
      f.has_id = true;
    }
  }

  // The event's id: the number itself, or for a scoped, local or non-numeric id a local string.
  void ResolveId(ParsedEvent& ev, const ObjectFields& f) {
    ev.bits |= kHasId;
    uint64_t numeric = 0;
    const char* text_end = f.id_text.data() + f.id_text.size();
    auto [end, ec] = std::from_chars(f.id_text.data(), text_end, numeric);
    if (f.scope_text.empty() && !f.id2_local && ec == std::errc() && end == text_end) {
      ev.id = numeric;
    } else {
      // Ids are namespaced by scope, and a local id2 by its process (catapult's key).
      std::string key = std::string(f.scope_text) + ":" + f.id_text;
      if (f.id2_local) {
        key += f.pid.is_string ? ":s:" + trace->local_strings[f.pid.value]
                               : fmt::format(":n:{}", f.pid.value);
      }
      ev.id = Local(key);
      ev.bits |= kIdIsString;
    }
  }

  // What the phase asks for besides the common fields; false for an event folded into the
  // tables instead of kept (metadata).
  bool KeepByPhase(ParsedEvent& ev, const ObjectFields& f) {
    switch (ev.ph) {
      case 'M':
        ApplyMetadata(f.name, ev.track);
        return false;  // metadata is folded into the tables, not kept as an event
      case 'C': {
        ev.extra = static_cast<uint32_t>(trace->counter_values.size());
        for (size_t i = 0; i < number_count; ++i) {
          trace->counter_values.push_back({Intern(numbers[i].key), numbers[i].value});
        }
        ev.extra_count = static_cast<uint16_t>(number_count);
        break;
      }
      case 'X':
        if (f.has_cat && (IsPacketCategory(f.cat) || IsMtiaDeviceCategory(f.cat))) {
          trace->tracks[ev.track].gpu_stream = true;
          trace->processes[trace->tracks[ev.track].process].gpu_device = true;
        } else if (f.has_cat && f.cat == "cuda_sync") {
          trace->processes[trace->tracks[ev.track].process].gpu_device = true;
        }
        if (has_kineto && f.kineto_cat) {
          ev.extra = static_cast<uint32_t>(trace->kineto_args.size());
          if (has_exported) {
            kineto.exported = static_cast<uint32_t>(trace->export_args.size());
            trace->export_args.push_back(exported);
          }
          trace->kineto_args.push_back(kineto);
        }
        break;
      default:
        break;
    }
    return true;
  }
};

ChromeEventParser::ChromeEventParser(core::store::TraceWriter& writer, ParsedTrace& trace)
    : m_impl(std::make_unique<Impl>(&writer, &trace)) {}
ChromeEventParser::~ChromeEventParser() = default;

void ChromeEventParser::Parse(uint64_t offset, std::string_view text) {
  m_impl->Parse(offset, text);
}

ChromeEventParser::ChromeEventParser() : m_impl(std::make_unique<Impl>(nullptr, nullptr)) {
  m_impl->UseOwnTables();
}

bool ChromeEventParser::ParseEvents(uint64_t offset, std::string_view text) {
  return m_impl->ParseEvents(offset, text);
}

void ChromeEventParser::TakePart(ParsedPart& part) { m_impl->TakePart(part); }

void ChromeEventParser::Merge(const ParsedPart& part) { m_impl->Merge(part); }

void ChromeEventParser::ForgetParts() {
  for (auto& ids : m_impl->sources) ids = Impl::SourceIds();
}

}  // namespace importers::chrome_json
