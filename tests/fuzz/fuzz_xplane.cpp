// XSpace profiles (.xplane.pb), through the importer `fencescope import` runs on one
// (ImportXSpace: the protobuf wire reader, the XSpace reader and the mapper), into a trace in
// memory; the sniff that tells an XSpace from other bytes runs on each input too.
#include <cstddef>
#include <cstdint>

#include "importers/xplane/xplane_importer.h"
#include "importers/xplane/xspace_reader.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes = fuzz_support::Bytes(data, size);
  (void)importers::xplane::LooksLikeXSpace(bytes);
  fuzz_support::ImportInMemory("xplane", [&](core::store::TraceWriter& writer) {
    importers::xplane::ImportXSpace(bytes, "fuzz.xplane.pb", writer, {});
  });
  return 0;
}
