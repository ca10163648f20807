// `fencescope view FILE.sqlite` on an Nsight Systems export: the window imports it like any other
// capture instead of taking it for a trace database. The expected packets are the kernel, memcpy
// and memset rows of the export, counted with Python's sqlite3 over the file itself.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "app/gui/state/document.h"
#include "app/gui/views/details_view.h"
#include "core/model/event_kind.h"
#include "tests/support/test_support.h"

namespace {

using test_support::Quote;

int64_t ActivityRows(const std::filesystem::path& sqlite) {
  const auto r = test_support::RunCommand(
      "python3 -c \"import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
      "names={n for (n,) in c.execute(\\\"SELECT name FROM sqlite_master WHERE type='table'\\\")}; "
      "print(sum(c.execute('SELECT count(*) FROM '+t).fetchone()[0] for t in "
      "('CUPTI_ACTIVITY_KIND_KERNEL','CUPTI_ACTIVITY_KIND_MEMCPY','CUPTI_ACTIVITY_KIND_MEMSET') "
      "if t in names))\" " +
      Quote(sqlite));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? std::stoll(r.out) : -1;
}

}  // namespace

TEST(NsysExportWindow, AnExportOpensInTheWindowAsAnImportedCapture) {
  test_support::ScratchDir dir;
  const auto sqlite = dir / "report1.sqlite";
  const auto made = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") +
      " stream_waits " + Quote(sqlite));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const int64_t expected = ActivityRows(sqlite);
  ASSERT_GT(expected, 0);
  const auto before = test_support::ReadFile(sqlite);
  auto doc = app::gui::state::LoadDocument(sqlite);
  ASSERT_NE(doc, nullptr);
  EXPECT_EQ(static_cast<int64_t>(doc->analysis.recon.packets.size()), expected);
  EXPECT_EQ(test_support::ReadFile(sqlite), before);  // the export is never written
}

// The details panel shows what the importer kept beside a record's fields: the bytes and
// direction of each copy of the hand-made `copies` export (4096 bytes HtoD, 1024 DtoH, 512 DtoD,
// 256 PtoP, a memset of 2048 bytes: make_nsys_sqlite.py's docstring) and the domain of an NVTX
// range (`nvtx_domains`: MPI_Send in the domain created as "MPI").
TEST(NsysExportWindow, TheDetailsPanelShowsCopyBytesAndNvtxDomains) {
  test_support::ScratchDir dir;
  for (const char* scenario : {"copies", "nvtx_domains"}) {
    const auto made = test_support::RunCommand(
        "python3 " +
        Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") + " " +
        scenario + " " + Quote(dir / (std::string(scenario) + ".sqlite")));
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  // name -> "bytes/direction" (or "domain") as the panel lists them, per record of `kind`.
  const auto shown = [](const app::gui::state::Document& doc, core::model::EventKind kind,
                        std::initializer_list<const char*> keys) {
    std::map<std::string, std::string> out;
    for (uint32_t i = 0; i < doc.store.events.size(); ++i) {
      if (doc.store.events.kind[i] != kind) continue;
      std::map<std::string, std::string> fields;
      for (const auto& [name, text] : app::gui::views::RecordFields(doc, i)) fields[name] = text;
      std::string name = fields["name_sid"];
      name = name.substr(0, name.find(" ("));  // the text, without any id after it
      std::string text;
      for (const char* key : keys) text += (key == *keys.begin() ? "" : "/") + fields[key];
      out[name] = text;
    }
    return out;
  };
  auto copies = app::gui::state::LoadDocument(dir / "copies.sqlite");
  ASSERT_NE(copies, nullptr);
  EXPECT_EQ(shown(*copies, core::model::EventKind::PacketSubmitted, {"bytes", "direction"}),
            (std::map<std::string, std::string>{{"Memcpy DtoD", "512/DtoD"},
                                                {"Memcpy DtoH", "1024/DtoH"},
                                                {"Memcpy HtoD", "4096/HtoD"},
                                                {"Memcpy PtoP", "256/PtoP"},
                                                {"Memset", "2048/"}}));
  auto domains = app::gui::state::LoadDocument(dir / "nvtx_domains.sqlite");
  ASSERT_NE(domains, nullptr);
  EXPECT_EQ(shown(*domains, core::model::EventKind::CpuSlice, {"domain", "domain_id"}),
            (std::map<std::string, std::string>{
                {"MPI_Send", "MPI/"}, {"io", "/2"}, {"plain", "/"}, {"unnamed", "/3"}}));
}
