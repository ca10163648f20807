// Traces held in memory: a trace file's bytes loaded without the file (LoadTraceImage) give what
// LoadTrace gives from the file, damage included; a writer in memory commits without a file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "core/model/error.h"
#include "core/store/sqlite_db.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

using namespace core::store;
using test_support::ReadFile;
using test_support::ScratchDir;

namespace {

// Enough events that the events table spans several pages (8 KiB each).
constexpr int kEvents = 3000;

template <typename Writer>
void FillTrace(Writer& w) {
  AdapterId a = w.AddAdapter({"dGPU", 1, true, true, PreemptionGranularity::kPixel,
                              PreemptionGranularity::kThreadGroup});
  EngineId e = w.AddEngine({a, EngineType::k3D, 0, "3D"});
  ProcessId p = w.AddProcess({42, "game"});
  QueueId q = w.AddQueue({e, a, QueueType::k3D, 0, p, "3d queue", 0});
  FenceId f = w.AddFence({"frame", FenceKind::kMonitored, false, a, 1, 0, 0});
  for (int i = 0; i < kEvents; ++i) {
    // Written out of time order, so that the loader keeps a rowid map.
    w.Append(events::FenceSignalExecuted{.ts_ns = (i * 7919) % kEvents * 10,
                                         .queue_id = q,
                                         .fence_id = f,
                                         .fence_value = static_cast<uint64_t>(i + 1)});
  }
  w.CountProblem("unit_problem", Severity::kError, "a problem", 3, "line 9");
  w.SetMeta("scenario", "image");
  w.Commit();
}

std::string Refusal(const std::function<void()>& load) {
  try {
    load();
  } catch (const core::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TraceImage, LoadsWhatTheFileLoads) {
  ScratchDir dir;
  const auto path = dir / "t.db";
  {
    TraceWriter w(path, "unit-test");
    FillTrace(w);
  }
  const TraceStore file = LoadTrace(path);
  const TraceStore image = LoadTraceImage(ReadFile(path), "t.db (in memory)");
  EXPECT_EQ(image.path, "t.db (in memory)");
  EXPECT_EQ(image.meta, file.meta);
  EXPECT_EQ(image.strings, file.strings);
  ASSERT_EQ(image.queues.size(), 1u);
  EXPECT_EQ(image.queues[0].name, "3d queue");
  ASSERT_EQ(image.events.size(), static_cast<size_t>(kEvents));
  EXPECT_EQ(image.events.ts, file.events.ts);
  EXPECT_EQ(image.events.value, file.events.value);
  EXPECT_EQ(image.events.rowid, file.events.rowid);
  EXPECT_EQ(image.events_hash, file.events_hash);
  ASSERT_EQ(image.problems.size(), 1u);
  EXPECT_EQ(image.problems[0].count, 3u);
}

TEST(TraceImage, RefusesBytesThatAreNotATraceNamingTheLabel) {
  const std::string message = Refusal([] { LoadTraceImage("hello, not a database", "notes.txt"); });
  EXPECT_NE(message.find("notes.txt: not a fencescope trace"), std::string::npos) << message;
  EXPECT_NE(Refusal([] { LoadTraceImage("", "empty"); }).find("empty: not a fencescope trace"),
            std::string::npos);
}

// A leaf page of the events table overwritten: the image is refused as the file is, with the
// damaged table and page named from the image's own bytes.
TEST(TraceImage, DamageIsDescribedAsForTheFile) {
  ScratchDir dir;
  const auto path = dir / "damaged.db";
  {
    TraceWriter w(path, "unit-test");
    FillTrace(w);
  }
  int64_t page_size = 0, leaf = 0;
  {
    Database db(path.string(), Database::Mode::kReadOnly);
    page_size = db.QueryInt("PRAGMA page_size");
    leaf = db.QueryInt(
        "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' "
        "ORDER BY pageno LIMIT 1 OFFSET 1");
  }
  ASSERT_GT(leaf, 1);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp((leaf - 1) * page_size);
    const std::string garbage(64, '\xff');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  const std::string from_file = Refusal([&] { LoadTrace(path); });
  const std::string from_image = Refusal([&] { LoadTraceImage(ReadFile(path), "image.db"); });
  const std::string named = "table events: Page " + std::to_string(leaf);
  EXPECT_NE(from_file.find(named), std::string::npos) << from_file;
  EXPECT_EQ(from_image.rfind("image.db: damaged database", 0), 0u) << from_image;
  EXPECT_NE(from_image.find(named), std::string::npos) << from_image;
  // Word for word the file's message, but for the name.
  EXPECT_EQ(from_image.substr(std::string("image.db").size()),
            from_file.substr(path.string().size()));
}

// Page 1's b-tree header overwritten: the schema cannot be read, so the first statement fails
// to compile. The image's refusal is still word for word the file's (whose check parses the
// schema again on a connection of its own), and both say the schema is what is damaged.
TEST(TraceImage, SchemaDamageIsDescribedAsForTheFile) {
  ScratchDir dir;
  const auto path = dir / "schema_damaged.db";
  {
    TraceWriter w(path, "unit-test");
    FillTrace(w);
  }
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);  // the database header's 100 bytes, then page 1's b-tree header
    const std::string garbage(12, '\xff');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  const std::string from_file = Refusal([&] { LoadTrace(path); });
  const std::string from_image = Refusal([&] { LoadTraceImage(ReadFile(path), "image.db"); });
  EXPECT_NE(from_file.find("the schema (sqlite_master"), std::string::npos) << from_file;
  EXPECT_EQ(from_image.rfind("image.db: damaged database", 0), 0u) << from_image;
  EXPECT_EQ(from_image.substr(std::string("image.db").size()),
            from_file.substr(path.string().size()));
}

// In-memory writers of one thread share a database whose rows each rolls back: one after the
// other, or two at once (the second gets a database of its own), each gets the rowids 1, 2, ...
// (FillTrace's Commit checks them against SQLite's) and leaves no file.
TEST(TraceWriter, InMemoryWritersCommitWithoutTouchingTheDisk) {
  ScratchDir dir;
  const auto before = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  std::vector<uint64_t> written;
  std::string failure;
  try {
    for (int i = 0; i < 3; ++i) {
      TraceWriter w(TraceWriter::InMemory{}, "unit-test");
      EXPECT_TRUE(w.temporary_path().empty());
      FillTrace(w);
      written.push_back(w.events_written());
    }
    {
      TraceWriter outer(TraceWriter::InMemory{}, "unit-test");
      {
        TraceWriter inner(TraceWriter::InMemory{}, "unit-test");
        FillTrace(inner);
        written.push_back(inner.events_written());
      }
      FillTrace(outer);
      written.push_back(outer.events_written());
    }
    {  // one given up half way: its rows go too
      TraceWriter w(TraceWriter::InMemory{}, "unit-test");
      w.Intern("left behind");
      w.Append(events::FenceSignalExecuted{.ts_ns = 1, .fence_value = 1});
    }
    TraceWriter w(TraceWriter::InMemory{}, "unit-test");
    FillTrace(w);
    written.push_back(w.events_written());
  } catch (const core::Error& e) {
    failure = e.what();
  }
  const bool empty = std::filesystem::is_empty(dir.path());
  std::filesystem::current_path(before);
  EXPECT_EQ(failure, "");
  EXPECT_EQ(written, std::vector<uint64_t>(6, kEvents));
  EXPECT_TRUE(empty) << "a writer left a file in " << dir.path();
}

// An empty name given as a view with no data (std::string_view()) is the empty text, not NULL
// (strings.value is NOT NULL; a trace-cmd record of a pid with no saved command name gave one).
TEST(TraceWriter, InternsAnEmptyViewAsEmptyText) {
  ScratchDir dir;
  const auto path = dir / "empty_name.db";
  {
    TraceWriter w(path, "unit-test");
    const StringId empty = w.Intern(std::string_view());  // the first: bound, not looked up
    EXPECT_NE(empty, 0u);
    const ProcessId p = w.AddProcess({7, "app"});
    w.AddThread({p, 8, ThreadKind::kApplication, "", 0});
    w.Commit();
  }
  const TraceStore s = LoadTrace(path);
  ASSERT_EQ(s.threads.size(), 1u);
  EXPECT_EQ(s.threads[0].name, "");
}
