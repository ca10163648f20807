// Writes a small .etl capture (the ETL tests' builder) as a seed for fuzz_etl: a logfile header
// and DxgKrnl records of the kinds the importer maps, in two buffers. Usage: make_etl_seed FILE
#include <fstream>
#include <iostream>

#include "tests/importers/etl/etl_builder.h"

using etl_test::Bytes;
using etl_test::EtlBuilder;
using etl_test::kDxgKrnl;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_etl_seed FILE\n";
    return 2;
  }
  constexpr uint64_t kCtx = 0xC0A, kFence = 0xF0;
  EtlBuilder b;
  b.LogfileHeader();
  b.Event(kDxgKrnl, 23, 0, 5, Bytes().U64(0xAD).U64(kCtx).U32(3).U32(0).U64(1).U64(0xFF), 4, 8);
  b.Event(kDxgKrnl, 178, 1, 10,
          Bytes().U64(kCtx).U32(0).U32(1).U64(64).U32(0).U32(0).U32(0).U64(0).U64(0x1A1).U64(0));
  b.Event(kDxgKrnl, 245, 2, 30,
          Bytes().U64(kCtx).U32(2).U32(0).U32(1).U64(kFence).U64(5).U64(0x1A2));
  b.NextBuffer();
  b.Event(kDxgKrnl, 180, 1, 55, Bytes().U64(kCtx).U32(0).U32(1).U32(0).U32(0).U64(0x1A1));
  b.Event(kDxgKrnl, 300, 0, 88, Bytes().U64(0xE0).U32(1).U64(6).U64(kFence).U32(0), 4, 8);
  b.Event(etl_test::kMarkerProvider, 0, 1, 95, Bytes().Text("hello"));
  std::ofstream(argv[1], std::ios::binary) << b.Finish();
  return 0;
}
