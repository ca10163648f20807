#include "importers/chrome_json/import_benchmark.h"

#include <time.h>

#include <chrono>

#include <fmt/format.h>
#include <simdjson.h>

#include "core/model/error.h"
#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_event.h"
#include "importers/chrome_json/chrome_json_importer.h"
#include "importers/common/compressed_input.h"

namespace importers::chrome_json {
namespace {

namespace od = simdjson::ondemand;

double CpuNow() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Wall-clock and process CPU time since construction.
struct Stopwatch {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = CpuNow();
  double Wall() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  }
  double Cpu() const { return CpuNow() - cpu; }
};

// Touches the fields every importer must read; returns a checksum so nothing is optimised away.
uint64_t TouchEvent(od::object event) {
  uint64_t sum = 0;
  for (auto field_result : event) {
    od::field field;
    if (std::move(field_result).get(field)) throw core::Error("raw pass: invalid JSON");
    std::string_view key;
    if (field.unescaped_key().get(key)) throw core::Error("raw pass: invalid JSON");
    od::value v = field.value();
    if (key == "ph") {
      std::string_view ph;
      if (!v.get_string().get(ph) && !ph.empty()) sum += static_cast<unsigned char>(ph[0]);
    } else if (key == "ts" || key == "dur") {
      double d = 0;
      if (!v.get_double().get(d)) sum += static_cast<uint64_t>(d);
    } else if (key == "pid" || key == "tid") {
      int64_t n = 0;
      std::string_view s;
      if (!v.get_int64().get(n)) sum += static_cast<uint64_t>(n);
      else if (!v.get_string().get(s)) sum += s.size();
    }
  }
  return sum;
}

uint64_t RawPass(const ByteBuffer& bytes, uint64_t* events) {
  od::parser parser;
  simdjson::padded_string_view view(bytes.data(), bytes.size(), bytes.size() + ByteBuffer::kPadding);
  od::document doc;
  if (auto e = parser.iterate(view).get(doc)) {
    throw core::Error(fmt::format("raw pass: {}", simdjson::error_message(e)));
  }
  od::array array;
  od::json_type type;
  if (doc.type().get(type)) throw core::Error("raw pass: invalid JSON");
  if (type == od::json_type::object) {
    if (doc["traceEvents"].get_array().get(array)) throw core::Error("raw pass: no traceEvents");
  } else if (doc.get_array().get(array)) {
    throw core::Error("raw pass: not an array");
  }
  uint64_t sum = 0;
  for (auto element : array) {
    od::object event;
    if (std::move(element).get_object().get(event)) throw core::Error("raw pass: bad event");
    sum += TouchEvent(event);
    ++*events;
  }
  return sum;
}

}  // namespace

ImportBenchmarkResult RunImportBenchmark(const std::filesystem::path& file,
                                         const std::filesystem::path& scratch, int runs) {
  DecodedInput input = ReadInput(file);
  if (input.content != FileFormat::kJson) {
    throw core::Error(file.string() + ": bench import needs a Chrome JSON trace");
  }
  ImportBenchmarkResult result;
  result.content_bytes = input.bytes.size();
  result.runs = runs;
  auto keep_best = [](double wall, double cpu, double* best_wall, double* best_cpu) {
    if (*best_wall == 0 || wall < *best_wall) *best_wall = wall;
    if (*best_cpu == 0 || cpu < *best_cpu) *best_cpu = cpu;
  };
  for (int run = 0; run < runs; ++run) {
    Stopwatch watch;
    result.events_in_file = 0;
    result.raw_checksum = RawPass(input.bytes, &result.events_in_file);
    keep_best(watch.Wall(), watch.Cpu(), &result.raw_seconds, &result.raw_cpu);

    watch = Stopwatch();
    {
      core::store::TraceWriter writer(scratch, "chrome-json");
      ParsedTrace trace;
      ParseChromeJson(input, writer, ImportOptions{}, trace);
    }  // not committed: the scratch file is removed
    keep_best(watch.Wall(), watch.Cpu(), &result.parse_seconds, &result.parse_cpu);

    DecodedInput again = ReadInput(file);  // the import releases its copy of the bytes
    watch = Stopwatch();
    {
      core::store::TraceWriter writer(scratch, "chrome-json");
      ImportChromeJson(again, writer, ImportOptions{});
      result.records_written = writer.events_written();
      writer.Commit();
    }
    keep_best(watch.Wall(), watch.Cpu(), &result.import_seconds, &result.import_cpu);
    std::error_code ec;
    std::filesystem::remove(scratch, ec);
  }
  return result;
}

}  // namespace importers::chrome_json
