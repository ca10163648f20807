#include "app/cli/examples.h"

#include <map>

namespace app::cli {
namespace {

const std::map<std::string, std::vector<Example>>& Table() {
  static const std::map<std::string, std::vector<Example>> table = {
      {"",
       {{"fencescope simulate default -o t.db", "simulate the default scenario into a trace"},
        {"fencescope report t.db -o report.html", "analyse it into a self-contained HTML page"},
        {"fencescope import capture.etl -o capture.db", "read another tool's trace"}}},
      {"info",
       {{"fencescope info t.db", "schema version, source, time span and rows per table"},
        {"fencescope info t.db --check", "also run SQLite's integrity check (exit 4 if damaged)"}}},
      {"query",
       {{"fencescope query t.db \"SELECT * FROM queues\"", "print a table"},
        {"fencescope query t.db \"SELECT kind, count(*) FROM events GROUP BY kind\" --csv",
         "print CSV"}}},
      {"simulate",
       {{"fencescope simulate default -o t.db", "run the default embedded scenario"},
        {"fencescope simulate async_compute_graphics -o t.db --fence-mode monitored --seed 7",
         "legacy monitored fences, another seed"},
        {"fencescope simulate my_scenario.toml -o t.db --duration-ms 50",
         "a scenario file, 50 simulated milliseconds"}}},
      {"bench",
       {{"fencescope bench store", "trace writer and loader against SQLite's own speed"},
        {"fencescope bench import capture.etl", "import speed of a file"}}},
      {"bench store", {{"fencescope bench store", "writer and loader figures"}}},
      {"bench simulate", {{"fencescope bench simulate", "simulator figures"}}},
      {"bench import", {{"fencescope bench import trace.json.gz", "MB/s decoding and inserting"}}},
      {"bench report", {{"fencescope bench report", "analysis and rendering times"}}},
      {"bench capture", {{"fencescope bench capture", "vkcube with and without the layer"}}},
      {"bench ui", {{"fencescope bench ui --events 100000 --frames 20", "timeline frame times"}}},
      {"bench whatif",
       {{"fencescope bench whatif trace.db", "replay throughput and opportunities against the report"}}},
      {"bench fleet",
       {{"fencescope bench fleet ranks/", "fleet import + report against single imports"}}},
      {"fleet",
       {{"fencescope fleet status fleet/", "how far a fleet's import has come (see its "
                                           "subcommands: import, report, submit, status, map)"}}},
      {"fleet import",
       {{"fencescope fleet import ranks/ -o fleet/", "every trace of a folder, in parallel"},
        {"fencescope fleet import 'ranks/*.json.gz' -o fleet/ --jobs 4", "a glob, 4 at a time"},
        {"fencescope fleet import nightly/ -o runs/ --traces-are runs",
         "runs of a CI: each step's slowest run, numbered by order"}}},
      {"fleet map",
       {{"fencescope fleet map fleet/ --first 0 --count 8",
         "import and summarise inputs 0-7 (what a Slurm array task runs)"}}},
      {"fleet report",
       {{"fencescope fleet report fleet/ -o fleet.html", "the cross-rank report as HTML"},
        {"fencescope fleet report fleet/ --format json --fail-if \"traces_failed > 0\"",
         "a CI gate: exit 3 when a trace failed"},
        {"fencescope fleet report fleet/ --traces-are runs -o runs.md",
         "once, the traces read as runs of a CI"}}},
      {"fleet status", {{"fencescope fleet status fleet/", "summaries present so far"}}},
      {"fleet submit",
       {{"fencescope fleet submit --slurm ranks/ -o /shared/fleet --partition gpu --array-max 64",
         "a Slurm job array and a reduce job depending on it"},
        {"fencescope fleet submit --slurm ranks/ -o /shared/fleet --chunk 16 --dry-run",
         "print the sbatch scripts, submit nothing"}}},
      {"import",
       {{"fencescope import capture.etl -o t.db", "an ETW capture with DxgKrnl events"},
        {"fencescope import worker0.pt.trace.json.gz -o t.db",
         "a PyTorch profiler (Kineto) trace, gzip-compressed"},
        {"fencescope import trace.dat -o t.db --lenient",
         "a trace-cmd capture, skipping malformed events"}}},
      {"record",
       {{"fencescope record -o t.db -- vkcube --c 300",
         "run vkcube under trace-cmd and import the capture"}}},
      {"export",
       {{"fencescope export t.db -o t.json", "Chrome trace-event JSON for Perfetto UI"},
        {"fencescope export t.db -o t.json.gz", "the same, gzip-compressed"}}},
      {"stats",
       {{"fencescope stats t.db", "counts and per-queue times as text"},
        {"fencescope stats t.db --json", "the same as JSON with stable keys"}}},
      {"report",
       {{"fencescope report t.db -o report.html", "one self-contained HTML file"},
        {"fencescope report t.db --format json --fail-if \"fences.waits_stuck > 0\"",
         "a CI gate: exit 3 when a wait is stuck"}}},
      {"compare",
       {{"fencescope compare native.db monitored.db", "differences as text"},
        {"fencescope compare a.db b.db --format html -o diff.html", "as an HTML page"}}},
      {"whatif",
       {{"fencescope whatif t.db -o faster.db --scale 'ampere_sgemm*=0.5'",
         "what these kernels twice as fast would save"},
        {"fencescope whatif t.db -o nosync.db --remove-sync cudaStreamSynchronize --json",
         "what taking the host's stream syncs out would save, as JSON"}}},
      {"capture",
       {{"fencescope capture -o t.db --duration 5 -- vkcube",
         "capture 5 seconds of a Vulkan application"}}},
      {"view",
       {{"fencescope view t.db", "open a trace in the window"},
        {"fencescope view capture.etl", "import a file of another tool and open it"},
        {"fencescope view t.db --screenshot shot.png", "render headless, write a PNG and exit"},
        {"fencescope view fleet/ --fleet-tab timeline",
         "a fleet's ranks as tracks on one aligned time axis"}}},
  };
  return table;
}

void Collect(const CLI::App& app, std::vector<const CLI::App*>& out) {
  for (const CLI::App* sub : VisibleSubcommands(app)) {
    out.push_back(sub);
    Collect(*sub, out);
  }
}

}  // namespace

std::vector<const CLI::App*> VisibleSubcommands(const CLI::App& app) {
  // Option groups are nameless subcommands; a subcommand without a group is hidden.
  return app.get_subcommands(
      [](const CLI::App* s) { return !s->get_name().empty() && !s->get_group().empty(); });
}

const std::vector<Example>& ExamplesFor(const std::string& path) {
  static const std::vector<Example> none;
  auto it = Table().find(path);
  return it == Table().end() ? none : it->second;
}

std::string CommandPath(const CLI::App& sub) {
  std::string path;
  for (const CLI::App* app = &sub; app->get_parent() != nullptr; app = app->get_parent()) {
    path = path.empty() ? app->get_name() : app->get_name() + " " + path;
  }
  return path;
}

std::vector<const CLI::App*> AllSubcommands(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  Collect(app, out);
  return out;
}

namespace {
void SetFooter(CLI::App& app) {
  const auto& examples = ExamplesFor(CommandPath(app));
  if (!examples.empty()) {
    std::string footer = "\nExamples:\n";
    for (const Example& example : examples) {
      footer += "  " + example.command + "\n      " + example.explanation + "\n";
    }
    footer.pop_back();
    app.footer(footer);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_name().empty(); })) {
    SetFooter(*sub);
  }
}
}  // namespace

void AddExamples(CLI::App& app) {
  SetFooter(app);
}

}  // namespace app::cli
