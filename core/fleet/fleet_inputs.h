// What a fleet is made of and where its files live.
//
// Inputs: files, directories (every regular file directly inside, hidden files and the
// fleet's own outputs left out) and glob patterns ("traces/rank-*.json.gz"), in any mix; the
// result is sorted by path and without duplicates, so the order is the same on every run and on
// every node (a Slurm array task finds its input by index in it).
//
// A fleet directory:
//   FLEETDIR/fleet-inputs.txt        the inputs, one absolute path a line (index = line - 1)
//   FLEETDIR/fleet-options.txt       how the fleet is read (FleetOptions)
//   FLEETDIR/traces/NNNNN.db         the trace database of input NNNNN
//   FLEETDIR/traces/NNNNN.summary.json   its summary (summary_file.h), written after the db
//   FLEETDIR/traces/NNNNN.error      why input NNNNN failed (instead of a summary)
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace core::fleet {

// Throws core::Error naming an argument that matches nothing (a missing file, an empty
// directory, a glob without a match).
std::vector<std::filesystem::path> ExpandInputs(const std::vector<std::string>& args);

// The rank a file name states: the digits after "rank" ("rank-3", "rank_12.json", "RANK7"),
// else the first run of digits ("worker0.1623...json" -> 0); -1 when the name has no digits.
int64_t RankFromFileName(const std::filesystem::path& path);

// How a fleet numbers its traces:
//   kMetadata  the ranks of one job: the trace's own rank (Kineto's distributedInfo.rank), else
//              the one in its file name (RankFromFileName), else its place in the input list
//   kFileName  the number in the file name, else the place in the input list
//   kOrder     the place in the input list: runs of a CI, whose traces may all say "rank 0"
enum class RankNumbering { kMetadata, kFileName, kOrder };
// "metadata", "name", "order" (the --ranks-from choices).
std::string_view RankNumberingName(RankNumbering numbering);
std::optional<RankNumbering> ParseRankNumbering(std::string_view name);

// What the traces of a fleet are:
//   kRanks  the ranks of one job, whose clocks a shared event lines up (a collective's end, else
//           the step start): a step's straggler is the rank that the others waited for
//   kRuns   runs of a CI (traces that ran apart): no run waits for another, so a step's
//           straggler is the run whose step took longest
enum class TracesAre { kRanks, kRuns };
// "ranks", "runs" (the --traces-are choices).
std::string_view TracesAreName(TracesAre traces_are);
// What one trace is called: "run" or "rank" (TracesAreName is the plural).
const char* TraceName(TracesAre traces_are);
std::optional<TracesAre> ParseTracesAre(std::string_view name);

// How a fleet is read: recorded by `fleet import` and `fleet submit` for the report and the
// window (FLEETDIR/fleet-options.txt: a line "ranks-from NAME" and a line "traces-are NAME").
struct FleetOptions {
  RankNumbering numbering = RankNumbering::kMetadata;
  TracesAre traces_are = TracesAre::kRanks;
};

struct FleetPaths {
  std::filesystem::path dir;
  std::filesystem::path InputList() const { return dir / "fleet-inputs.txt"; }
  std::filesystem::path OptionsFile() const { return dir / "fleet-options.txt"; }
  std::filesystem::path TracesDir() const { return dir / "traces"; }
  std::filesystem::path Database(size_t index) const;
  std::filesystem::path Summary(size_t index) const;
  std::filesystem::path Error(size_t index) const;
};

// Writes the input list (atomically). Throws core::Error when FLEETDIR cannot be made.
void WriteInputList(const FleetPaths& paths, const std::vector<std::filesystem::path>& inputs);
// Throws core::Error naming the file when FLEETDIR has no input list.
std::vector<std::filesystem::path> ReadInputList(const FleetPaths& paths);

// Records the fleet's options (atomically).
void WriteFleetOptions(const FleetPaths& paths, const FleetOptions& options);
// What WriteFleetOptions recorded; the defaults for a fleet without the file. Throws
// core::Error naming the file and the line of anything else in it.
FleetOptions ReadFleetOptions(const FleetPaths& paths);

}  // namespace core::fleet
