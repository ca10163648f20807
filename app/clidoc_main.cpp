// fencescope_clidoc OUTDIR: writes, from the command line main() parses with (app/command_line.h),
// the man page (fencescope.1 and fencescope.1.gz, compressed as Debian wants it: gzip -9, no name
// or time stamp) and the completions (fencescope.bash, _fencescope for zsh, fencescope.fish).
// Run at build time; its outputs are installed (see app/CMakeLists.txt).
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "app/cli/cli_docs.h"
#include "app/command_line.h"
#include "app/version.h"

namespace {

bool Write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) std::cerr << "fencescope_clidoc: cannot write " << path.string() << "\n";
  return static_cast<bool>(out);
}

// zlib's gzip writer puts no file name and a zero time stamp in the header.
bool WriteGzip(const std::filesystem::path& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb9");
  bool ok = file != nullptr && gzwrite(file, text.data(), static_cast<unsigned>(text.size())) ==
                                   static_cast<int>(text.size());
  if (file != nullptr && gzclose(file) != Z_OK) ok = false;
  if (!ok) std::cerr << "fencescope_clidoc: cannot write " << path.string() << "\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fencescope_clidoc OUTDIR\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  CLI::App app;
  app::DefineCommandLine(app);
  app.name("fencescope");
  const std::string man = app::cli::ManPage(app, std::string(app::Version()));
  bool ok = Write(dir / "fencescope.1", man) && WriteGzip(dir / "fencescope.1.gz", man) &&
            Write(dir / "fencescope.bash", app::cli::BashCompletion(app)) &&
            Write(dir / "_fencescope", app::cli::ZshCompletion(app)) &&
            Write(dir / "fencescope.fish", app::cli::FishCompletion(app));
  return ok ? 0 : 1;
}
