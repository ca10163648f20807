// The fuzz smoke run of `./build.sh test`: a libFuzzer harness (LLVMFuzzerTestOneInput) linked
// with this main instead of libFuzzer, so that it builds with the sanitizer build's compiler and
// runs as a test. It feeds the harness every seed file given (files, or folders read one level
// deep), then a fixed number of mutants of them: truncated, bytes flipped, inserted, deleted or
// repeated, two seeds spliced. The mutants come from a fixed PRNG seed, so every run feeds the
// same inputs; a crash is the sanitizer's report and a non-zero exit. `./build.sh fuzz` is the
// coverage-guided search; this catches what a change breaks on the inputs nearby.
//
// Usage: HARNESS_smoke [--mutants N] [--max-len BYTES] SEED_PATH...
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

Bytes ReadFile(const fs::path& path, size_t max_len) {
  std::ifstream in(path, std::ios::binary);
  Bytes bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() > max_len) bytes.resize(max_len);
  return bytes;
}

std::vector<fs::path> SeedFiles(const std::vector<std::string>& paths) {
  std::vector<fs::path> files;
  for (const std::string& p : paths) {
    if (fs::is_directory(p)) {
      for (const fs::directory_entry& e : fs::directory_iterator(p)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
    } else if (fs::is_regular_file(p)) {
      files.emplace_back(p);
    } else {
      std::cerr << "fuzz smoke: " << p << ": no such file or folder\n";
      std::exit(2);
    }
  }
  std::sort(files.begin(), files.end());  // the same order on every machine
  return files;
}

// One mutant of `a` (with `b`, another seed, for splicing).
Bytes Mutate(const Bytes& a, const Bytes& b, std::mt19937_64& rng, size_t max_len) {
  Bytes out = a;
  auto at = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 6) {
      case 0:  // truncate
        out.resize(at(out.size() + 1));
        break;
      case 1:  // flip a byte to anything
        if (!out.empty()) out[at(out.size())] = static_cast<uint8_t>(rng());
        break;
      case 2: {  // insert a run of one byte, often a structural one
        static const char kBytes[] = "{}[]\",:\\0\n\xff";
        const uint8_t byte = static_cast<uint8_t>(kBytes[at(sizeof(kBytes) - 1)]);
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(at(out.size() + 1)), 1 + at(8), byte);
        break;
      }
      case 3: {  // delete a range
        const size_t from = at(out.size() + 1);
        const size_t n = std::min(out.size() - from, 1 + at(64));
        out.erase(out.begin() + static_cast<std::ptrdiff_t>(from),
                  out.begin() + static_cast<std::ptrdiff_t>(from + n));
        break;
      }
      case 4: {  // repeat a range
        if (out.empty()) break;
        const size_t from = at(out.size());
        const size_t n = std::min(out.size() - from, 1 + at(256));
        const Bytes piece(out.begin() + static_cast<std::ptrdiff_t>(from),
                          out.begin() + static_cast<std::ptrdiff_t>(from + n));
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(at(out.size() + 1)), piece.begin(),
                   piece.end());
        break;
      }
      default: {  // splice: a's head, b's tail
        const size_t cut = at(out.size() + 1);
        out.resize(cut);
        const size_t from = at(b.size() + 1);
        out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(from), b.end());
        break;
      }
    }
  }
  if (out.size() > max_len) out.resize(max_len);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  size_t mutants = 1000;
  size_t max_len = 262144;  // as ./build.sh fuzz's -max_len
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--mutants" || arg == "--max-len") && i + 1 < argc) {
      (arg == "--mutants" ? mutants : max_len) = std::stoull(argv[++i]);
    } else {
      paths.push_back(arg);
    }
  }
  const std::vector<fs::path> files = SeedFiles(paths);
  if (files.empty()) {
    std::cerr << "fuzz smoke: no seed files in the paths given\n";
    return 2;
  }
  std::vector<Bytes> seeds;
  for (const fs::path& f : files) {
    seeds.push_back(ReadFile(f, max_len));
    LLVMFuzzerTestOneInput(seeds.back().data(), seeds.back().size());
  }
  LLVMFuzzerTestOneInput(nullptr, 0);  // the empty input
  std::mt19937_64 rng(0x5EED);
  for (size_t m = 0; m < mutants; ++m) {
    const Bytes& a = seeds[m % seeds.size()];
    const Bytes& b = seeds[rng() % seeds.size()];
    const Bytes input = Mutate(a, b, rng, max_len);
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::cout << "fuzz smoke: " << seeds.size() << " seeds, the empty input and " << mutants
            << " mutants ran without a fault\n";
  return 0;
}
