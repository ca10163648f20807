#include "core/cache/trace_cache.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>

#include "core/model/error.h"
#include "core/store/schema_sql.h"

namespace core::cache {
namespace {

constexpr size_t kBlockBytes = size_t{8} << 20;  // raw bytes per compressed block
// zstd level 1: the cache is written once per trace and read on every open, and decompression
// speed hardly depends on the level; level 1 writes fast and still halves repetitive columns.
constexpr int kZstdLevel = 1;

constexpr std::string_view kCreateTables = R"sql(
CREATE TABLE IF NOT EXISTS cache_sections (
  name           TEXT PRIMARY KEY,
  format         INTEGER NOT NULL,
  layout         INTEGER NOT NULL,
  schema_version INTEGER NOT NULL,
  events_rows    INTEGER NOT NULL,
  events_hash    TEXT NOT NULL,
  raw_bytes      INTEGER NOT NULL,
  blocks         INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS cache_blocks (
  section   TEXT NOT NULL,
  seq       INTEGER NOT NULL,
  raw_bytes INTEGER NOT NULL,
  data      BLOB NOT NULL,
  UNIQUE (section, seq)
);
)sql";

// Runs `work(i)` for i in [0, n) on up to the machine's cores.
void ParallelFor(size_t n, const std::function<void(size_t)>& work) {
  const size_t threads =
      std::min<size_t>(n, std::max(1u, std::min(std::thread::hardware_concurrency(), 8u)));
  std::atomic<size_t> next{0};
  auto run = [&] {
    for (size_t i = next++; i < n; i = next++) work(i);
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(run);
  run();
  for (auto& t : pool) t.join();
}

int64_t EventsRows(store::Database& db) { return db.QueryInt("SELECT max(rowid) FROM events"); }

bool HasCacheTables(store::Database& db) {
  return db.QueryInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND "
                     "name IN ('cache_sections', 'cache_blocks')") == 2;
}

struct SectionRow {
  int64_t format = 0;
  uint64_t layout = 0;
  int64_t schema_version = 0;
  int64_t events_rows = 0;
  std::string events_hash;
  int64_t raw_bytes = 0;
  int64_t blocks = 0;
};

// Why a section may not be used ("" when it may). layout 0: not checked (`info`).
std::string StaleReason(store::Database& db, const SectionRow& row, uint64_t layout) {
  if (row.format != kCacheFormat) {
    return fmt::format("written in cache format {}, this build reads {}", row.format,
                       kCacheFormat);
  }
  if (layout != 0 && row.layout != layout) {
    return fmt::format("written with data layout {:016x}, this build's is {:016x}", row.layout,
                       layout);
  }
  const int64_t schema = db.QueryInt("PRAGMA user_version");
  if (row.schema_version != schema) {
    return fmt::format("written for schema version {}, the file is version {}",
                       row.schema_version, schema);
  }
  const int64_t rows = EventsRows(db);
  if (row.events_rows != rows) {
    return fmt::format("written for {} event rows, the file has {}", row.events_rows, rows);
  }
  return {};
}

std::optional<SectionRow> FindSection(store::Database& db, std::string_view name) {
  auto s = db.Prepare(
      "SELECT format, layout, schema_version, events_rows, events_hash, raw_bytes, blocks "
      "FROM cache_sections WHERE name = ?");
  s.BindText(1, name);
  if (!s.Step()) return std::nullopt;
  return SectionRow{s.ColumnInt(0), static_cast<uint64_t>(s.ColumnInt(1)), s.ColumnInt(2),
                    s.ColumnInt(3), s.ColumnText(4), s.ColumnInt(5), s.ColumnInt(6)};
}

// The triggers that empty cache_sections when any row of a trace table changes: every table
// but the cache's own and SQLite's.
void InstallTriggers(store::Database& db) {
  std::vector<std::string> tables;
  {
    auto s = db.Prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'cache\\_%' "
        "ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
    while (s.Step()) tables.push_back(s.ColumnText(0));
  }
  std::string sql;
  for (const auto& table : tables) {
    for (const char* op : {"INSERT", "UPDATE", "DELETE"}) {
      sql += fmt::format(
          "CREATE TRIGGER IF NOT EXISTS \"cache_stale_{0}_{1}\" AFTER {1} ON \"{0}\" "
          "BEGIN DELETE FROM cache_sections; END;\n",
          table, op);
    }
  }
  db.Exec(sql);
}

}  // namespace

namespace {

// The row of section `name` when it may be read for `layout`; else nullopt, with why in `why`
// ("" when the file has no such section).
std::optional<SectionRow> UsableSection(store::Database& db, std::string_view name,
                                        uint64_t layout, std::string* why) {
  auto say = [&](std::string reason) -> std::optional<SectionRow> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (!HasCacheTables(db)) return say("");
  auto row = FindSection(db, name);
  if (!row) return say("");
  if (std::string stale = StaleReason(db, *row, layout); !stale.empty()) return say(stale);
  return row;
}

}  // namespace

bool CacheSectionUsable(store::Database& db, std::string_view name, uint64_t layout) {
  return UsableSection(db, name, layout, nullptr).has_value();
}

std::optional<SectionBytes> ReadCacheSection(store::Database& db, std::string_view name,
                                             uint64_t layout, std::string* why) {
  auto say = [&](std::string reason) -> std::optional<SectionBytes> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  auto row = UsableSection(db, name, layout, why);
  if (!row) return std::nullopt;

  struct Block {
    std::vector<uint8_t> data;
    size_t raw = 0;
    size_t offset = 0;
  };
  std::vector<Block> blocks;
  size_t total = 0;
  {
    auto s = db.Prepare(
        "SELECT seq, raw_bytes, data FROM cache_blocks WHERE section = ? ORDER BY seq");
    s.BindText(1, name);
    while (s.Step()) {
      if (s.ColumnInt(0) != static_cast<int64_t>(blocks.size()) || s.ColumnInt(1) < 0) {
        return say(fmt::format("block {} is missing", blocks.size()));
      }
      Block b;
      const auto* data = static_cast<const uint8_t*>(sqlite3_column_blob(s.handle(), 2));
      b.data.assign(data, data + sqlite3_column_bytes(s.handle(), 2));
      b.raw = static_cast<size_t>(s.ColumnInt(1));
      b.offset = total;
      total += b.raw;
      blocks.push_back(std::move(b));
    }
  }
  if (static_cast<int64_t>(blocks.size()) != row->blocks ||
      static_cast<int64_t>(total) != row->raw_bytes) {
    return say(fmt::format("{} blocks of {} bytes, the section says {} of {}", blocks.size(),
                           total, row->blocks, row->raw_bytes));
  }
  SectionBytes out{std::unique_ptr<uint8_t[]>(new uint8_t[std::max<size_t>(total, 1)]), total};
  std::atomic<bool> damaged{false};
  ParallelFor(blocks.size(), [&](size_t i) {
    const Block& b = blocks[i];
    size_t n = ZSTD_decompress(out.data.get() + b.offset, b.raw, b.data.data(), b.data.size());
    if (ZSTD_isError(n) || n != b.raw) damaged = true;
  });
  if (damaged) return say("a block does not decompress (damaged)");
  return out;
}

bool WriteCacheSections(const std::filesystem::path& path, const std::vector<CacheSection>& sections,
                        uint64_t events_hash, std::string* why) {
  try {
    // Compress first, outside the write transaction.
    struct Compressed {
      size_t section = 0;
      size_t seq = 0;
      size_t raw = 0;
      std::vector<uint8_t> data;
    };
    std::vector<Compressed> blocks;
    for (size_t s = 0; s < sections.size(); ++s) {
      const auto& bytes = sections[s].bytes;
      const size_t count = std::max<size_t>(1, (bytes.size() + kBlockBytes - 1) / kBlockBytes);
      for (size_t seq = 0; seq < count; ++seq) {
        blocks.push_back({s, seq, std::min(kBlockBytes, bytes.size() - seq * kBlockBytes), {}});
      }
    }
    std::atomic<bool> failed{false};
    ParallelFor(blocks.size(), [&](size_t i) {
      Compressed& b = blocks[i];
      const uint8_t* src = sections[b.section].bytes.data() + b.seq * kBlockBytes;
      ZSTD_CCtx* ctx = ZSTD_createCCtx();
      ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, kZstdLevel);
      ZSTD_CCtx_setParameter(ctx, ZSTD_c_checksumFlag, 1);  // damage shows on decompression
      b.data.resize(ZSTD_compressBound(b.raw));
      size_t n = ZSTD_compress2(ctx, b.data.data(), b.data.size(), src, b.raw);
      ZSTD_freeCCtx(ctx);
      if (ZSTD_isError(n)) {
        failed = true;
        return;
      }
      b.data.resize(n);
    });
    if (failed) throw Error("cache: compression failed");

    store::Database db(path.string(), store::Database::Mode::kReadWrite);
    db.Exec("PRAGMA busy_timeout = 2000");
    db.Exec("BEGIN IMMEDIATE");
    try {
      db.Exec(kCreateTables);
      InstallTriggers(db);
      const int64_t schema = db.QueryInt("PRAGMA user_version");
      const int64_t rows = EventsRows(db);
      const std::string hash = fmt::format("{:016x}", events_hash);
      auto drop = db.Prepare("DELETE FROM cache_blocks WHERE section = ?");
      auto head = db.Prepare(
          "INSERT OR REPLACE INTO cache_sections(name, format, layout, schema_version, "
          "events_rows, events_hash, raw_bytes, blocks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
      for (const auto& section : sections) {
        drop.BindText(1, section.name);
        drop.Run();
        size_t count = 0;
        for (const auto& b : blocks) count += &sections[b.section] == &section ? 1 : 0;
        head.BindText(1, section.name);
        head.BindInt(2, kCacheFormat);
        head.BindInt(3, static_cast<int64_t>(section.layout));
        head.BindInt(4, schema);
        head.BindInt(5, rows);
        head.BindText(6, hash);
        head.BindInt(7, static_cast<int64_t>(section.bytes.size()));
        head.BindInt(8, static_cast<int64_t>(count));
        head.Run();
      }
      auto insert = db.Prepare(
          "INSERT INTO cache_blocks(section, seq, raw_bytes, data) VALUES (?, ?, ?, ?)");
      for (const auto& b : blocks) {
        insert.BindText(1, sections[b.section].name);
        insert.BindInt(2, static_cast<int64_t>(b.seq));
        insert.BindInt(3, static_cast<int64_t>(b.raw));
        sqlite3_bind_blob64(insert.handle(), 4, b.data.data(), b.data.size(), SQLITE_STATIC);
        insert.Run();
      }
      db.Exec("COMMIT");
    } catch (...) {
      db.Exec("ROLLBACK");
      throw;
    }
    return true;
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return false;
  }
}

void DropCache(const std::filesystem::path& path) {
  store::Database db(path.string(), store::Database::Mode::kReadWrite);
  std::vector<std::string> triggers;
  {
    auto s = db.Prepare(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'cache\\_stale\\_%' "
        "ESCAPE '\\'");
    while (s.Step()) triggers.push_back(s.ColumnText(0));
  }
  std::string sql = "BEGIN;";
  for (const auto& t : triggers) sql += fmt::format("DROP TRIGGER \"{}\";", t);
  sql += "DROP TABLE IF EXISTS cache_blocks; DROP TABLE IF EXISTS cache_sections; COMMIT;";
  db.Exec(sql);
}

std::vector<CacheSectionInfo> DescribeCache(store::Database& db) {
  std::vector<CacheSectionInfo> out;
  if (!HasCacheTables(db)) return out;
  auto s = db.Prepare(
      "SELECT s.name, s.format, s.layout, s.schema_version, s.events_rows, s.events_hash, "
      "s.raw_bytes, s.blocks, (SELECT coalesce(sum(length(b.data)), 0) FROM cache_blocks b "
      "WHERE b.section = s.name) FROM cache_sections s ORDER BY s.name");
  while (s.Step()) {
    SectionRow row{s.ColumnInt(1), static_cast<uint64_t>(s.ColumnInt(2)), s.ColumnInt(3),
                   s.ColumnInt(4), s.ColumnText(5), s.ColumnInt(6), s.ColumnInt(7)};
    CacheSectionInfo info;
    info.name = s.ColumnText(0);
    info.raw_bytes = static_cast<uint64_t>(row.raw_bytes);
    info.stored_bytes = static_cast<uint64_t>(s.ColumnInt(8));
    info.events_hash = row.events_hash;
    info.stale = StaleReason(db, row, 0);
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace core::cache
