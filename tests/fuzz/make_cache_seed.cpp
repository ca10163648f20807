// Writes seeds for fuzz_cache_blob from a trace file: the bytes of each packed cache section
// CachedTrace writes for it (store, events, recon, analyses; core/cache/cached_trace.h), each
// behind the byte that selects its section in the harness (0 to 3).
// Usage: make_cache_seed TRACE OUTPUT_DIR
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/cache/section_fields.h"
#include "core/cache/serialize.h"
#include "core/report/report_data.h"
#include "core/store/trace_store.h"

namespace {
void Write(const std::filesystem::path& path, uint8_t selector, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.put(static_cast<char>(selector));
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_cache_seed TRACE OUTPUT_DIR\n");
    return 2;
  }
  const std::filesystem::path out = argv[2];
  std::filesystem::create_directories(out);
  const core::store::TraceStore store = core::store::LoadTrace(argv[1]);
  Write(out / "store", 0, core::cache::ToBytes(core::cache::StoreFields(store)));
  Write(out / "events", 1, core::cache::ToBytes(core::cache::BulkFields(store.events)));
  core::report::ReportData d = core::report::AnalyseTrace(store, true);
  Write(out / "recon", 2, core::cache::ToBytes(d.recon));
  d.recon = {};  // the analyses' section is written without its reconstruction
  Write(out / "analysis", 3, core::cache::ToBytes(d));
  return 0;
}
