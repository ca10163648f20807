#include "core/fleet/fleet_inputs.h"

#include <glob.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "core/model/error.h"
#include "core/store/output_file.h"

namespace core::fleet {
namespace fs = std::filesystem;

namespace {

bool HasGlobCharacters(const std::string& arg) {
  return arg.find_first_of("*?[") != std::string::npos;
}

// A fleet's own outputs (trace databases and summaries) are not inputs of another fleet.
bool IsFleetOutput(const fs::path& p) {
  const std::string name = p.filename().string();
  return name == "fleet-inputs.txt" || name.ends_with(".summary.json") || name.ends_with(".error");
}

int64_t DigitsAt(const std::string& name, size_t pos) {
  int64_t n = 0;
  size_t digits = 0;
  while (pos < name.size() && std::isdigit(static_cast<unsigned char>(name[pos])) && digits < 9) {
    n = n * 10 + (name[pos] - '0');
    ++pos, ++digits;
  }
  return digits ? n : -1;
}

}  // namespace

std::vector<fs::path> ExpandInputs(const std::vector<std::string>& args) {
  std::set<fs::path> found;
  for (const std::string& arg : args) {
    size_t before = found.size();
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      size_t folders = 0;  // not searched: named in the error when nothing else is there
      for (const fs::directory_entry& e : fs::directory_iterator(arg, ec)) {
        const std::string name = e.path().filename().string();
        if (!name.empty() && name[0] != '.' && e.is_directory()) ++folders;
        if (name.empty() || name[0] == '.' || !e.is_regular_file() || IsFleetOutput(e.path())) {
          continue;
        }
        found.insert(fs::absolute(e.path()).lexically_normal());
      }
      if (ec) throw core::Error(fmt::format("{}: cannot list the directory: {}", arg, ec.message()));
      if (found.size() == before && folders > 0) {
        throw core::Error(fmt::format(
            "{0}: the directory holds no trace file, only folders ({1}; folders are not "
            "searched: give a glob such as '{0}/*/*.json.gz', or the folders themselves)",
            arg, folders));
      }
      if (found.size() == before) {
        throw core::Error(fmt::format("{}: the directory holds no trace file", arg));
      }
    } else if (fs::is_regular_file(arg, ec)) {
      found.insert(fs::absolute(arg).lexically_normal());
    } else if (HasGlobCharacters(arg)) {
      glob_t g{};
      const int rc = glob(arg.c_str(), 0, nullptr, &g);
      for (size_t i = 0; rc == 0 && i < g.gl_pathc; ++i) {
        if (fs::is_regular_file(g.gl_pathv[i], ec)) {
          found.insert(fs::absolute(g.gl_pathv[i]).lexically_normal());
        }
      }
      globfree(&g);
      if (found.size() == before) {
        throw core::Error(fmt::format("{}: the pattern matches no file", arg));
      }
    } else {
      throw core::Error(fmt::format("{}: no such file or directory", arg));
    }
  }
  return {found.begin(), found.end()};
}

int64_t RankFromFileName(const fs::path& path) {
  std::string name = path.filename().string();
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // "rank" then an optional separator: the rank the launcher wrote into the name.
  for (size_t at = lower.find("rank"); at != std::string::npos; at = lower.find("rank", at + 1)) {
    size_t p = at + 4;
    if (p < lower.size() && (lower[p] == '-' || lower[p] == '_' || lower[p] == '.')) ++p;
    if (int64_t n = DigitsAt(lower, p); n >= 0) return n;
  }
  for (size_t p = 0; p < name.size(); ++p) {
    if (std::isdigit(static_cast<unsigned char>(name[p]))) return DigitsAt(name, p);
  }
  return -1;
}

std::string_view RankNumberingName(RankNumbering numbering) {
  switch (numbering) {
    case RankNumbering::kFileName:
      return "name";
    case RankNumbering::kOrder:
      return "order";
    case RankNumbering::kMetadata:
      break;
  }
  return "metadata";
}

std::optional<RankNumbering> ParseRankNumbering(std::string_view name) {
  for (RankNumbering n :
       {RankNumbering::kMetadata, RankNumbering::kFileName, RankNumbering::kOrder}) {
    if (RankNumberingName(n) == name) return n;
  }
  return std::nullopt;
}

std::string_view TracesAreName(TracesAre traces_are) {
  return traces_are == TracesAre::kRuns ? "runs" : "ranks";
}

const char* TraceName(TracesAre traces_are) {
  return traces_are == TracesAre::kRuns ? "run" : "rank";
}

std::optional<TracesAre> ParseTracesAre(std::string_view name) {
  for (TracesAre t : {TracesAre::kRanks, TracesAre::kRuns}) {
    if (TracesAreName(t) == name) return t;
  }
  return std::nullopt;
}

void WriteFleetOptions(const FleetPaths& paths, const FleetOptions& options) {
  core::store::WriteFileAtomically(
      paths.OptionsFile(),
      fmt::format("ranks-from {}\ntraces-are {}\n", RankNumberingName(options.numbering),
                  TracesAreName(options.traces_are)));
}

FleetOptions ReadFleetOptions(const FleetPaths& paths) {
  FleetOptions options;
  std::ifstream in(paths.OptionsFile());
  size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    const size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    const auto numbering = key == "ranks-from" ? ParseRankNumbering(value) : std::nullopt;
    const auto traces_are = key == "traces-are" ? ParseTracesAre(value) : std::nullopt;
    if (numbering) {
      options.numbering = *numbering;
    } else if (traces_are) {
      options.traces_are = *traces_are;
    } else {
      throw core::Error(
          fmt::format("{}: line {}: \"{}\" is neither \"ranks-from metadata|name|order\" nor "
                      "\"traces-are ranks|runs\"",
                      paths.OptionsFile().string(), number, line));
    }
  }
  return options;
}

fs::path FleetPaths::Database(size_t index) const {
  return TracesDir() / fmt::format("{:05}.db", index);
}
fs::path FleetPaths::Summary(size_t index) const {
  return TracesDir() / fmt::format("{:05}.summary.json", index);
}
fs::path FleetPaths::Error(size_t index) const {
  return TracesDir() / fmt::format("{:05}.error", index);
}

void WriteInputList(const FleetPaths& paths, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  fs::create_directories(paths.TracesDir(), ec);
  if (ec) {
    throw core::Error(fmt::format("{}: cannot create the fleet directory: {}",
                                  paths.dir.string(), ec.message()));
  }
  std::string text;
  for (const fs::path& p : inputs) text += p.string() + "\n";
  core::store::WriteFileAtomically(paths.InputList(), text);
}

std::vector<fs::path> ReadInputList(const FleetPaths& paths) {
  std::ifstream in(paths.InputList());
  if (!in) {
    throw core::Error(fmt::format("{}: not a fleet directory (no fleet-inputs.txt; make one with "
                                  "`fencescope fleet import` or `fleet submit`)",
                                  paths.dir.string()));
  }
  std::vector<fs::path> inputs;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) inputs.emplace_back(line);
  }
  return inputs;
}

}  // namespace core::fleet
