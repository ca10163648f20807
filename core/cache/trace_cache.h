// The packed cache inside a trace file (schemas/trace_cache.md): named sections of bytes (what
// serialize.h makes of the event columns, the reconstruction, the analyses, the timeline), each
// split into blocks compressed with zstd, in the tables cache_sections and cache_blocks.
//
// A section is used only while it matches the rows it was derived from:
//   * its format is this build's kCacheFormat, its layout the layout of the type this build
//     decodes it into (serialize.h LayoutHash), and its schema version the file's;
//   * events.max(rowid) is what it was when the section was written (cheap: one b-tree descent);
//   * no row of any other table changed since: writing the cache installs triggers on every table
//     of the trace that empty cache_sections on any INSERT, UPDATE or DELETE, whoever runs it (a
//     user's sqlite3 shell, another program), so a changed trace has no sections left;
//   * every block decompresses (zstd's checksum of the block) to the length recorded.
// Otherwise the caller derives the data from the rows again and writes the section anew. The
// hash of the events table's content (EventsHash, computed while the rows are read) is stored
// with each section for `fencescope info` and for readers that want to verify against the rows.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/store/sqlite_db.h"

namespace core::cache {

// Bumped whenever the bytes of any section change meaning (a struct gains a field, ...).
// 2: a bool is saved and loaded on its own (checked to be 0 or 1), also inside vectors.
constexpr int64_t kCacheFormat = 2;

struct CacheSection {
  std::string name;
  uint64_t layout = 0;  // serialize.h LayoutHash of the type the bytes hold
  std::vector<uint8_t> bytes;
};

// A section's bytes as read (not zero-filled first: sections run to hundreds of MB).
struct SectionBytes {
  std::unique_ptr<uint8_t[]> data;
  size_t size = 0;
};

// The bytes of section `name` of the trace open as `db`, or nullopt when the file has none or it
// is stale or damaged; `why` (may be null) then says which ("" when there is simply none).
// True when section `name` is present and not stale for `layout` (its blocks are not read: a
// damaged block shows only when ReadCacheSection decompresses it).
bool CacheSectionUsable(store::Database& db, std::string_view name, uint64_t layout);

// `layout`: LayoutHash of the type the caller decodes; a section of another layout is stale.
std::optional<SectionBytes> ReadCacheSection(store::Database& db, std::string_view name,
                                             uint64_t layout, std::string* why = nullptr);

// Writes `sections` into the trace file at `path` (replacing sections of the same names) in one
// transaction, creating the cache tables and the staleness triggers when absent. The cache is
// optional: when the file cannot be written (read-only file or folder, disk full) nothing
// changes, the reason goes to `why` and false is returned. `events_hash`: EventsHash of the rows.
bool WriteCacheSections(const std::filesystem::path& path, const std::vector<CacheSection>& sections,
                        uint64_t events_hash, std::string* why = nullptr);

// Drops every cache table and trigger (`fencescope info --drop-cache`, tests).
void DropCache(const std::filesystem::path& path);

// Summary of the cache for `fencescope info`: one entry per section (name, raw bytes, stored
// bytes, valid or why not).
struct CacheSectionInfo {
  std::string name;
  uint64_t raw_bytes = 0;
  uint64_t stored_bytes = 0;
  std::string events_hash;
  std::string stale;  // empty when the section would be used
};
std::vector<CacheSectionInfo> DescribeCache(store::Database& db);

// Hash of the event rows: the sum (mod 2^64) over rows of a hash of the row's columns, its
// rowid included (FNV-style mixing), computed by the loader as it reads the rows. A sum, so that
// the parts of the table read at once (trace_loader.cpp) add up to what one pass gives; the
// rowid in each row's hash makes moving a row's content to another row change it.
class EventsHash {
 public:
  // Adds one row: its columns in schema order, the rowid first.
  template <typename... Columns>
  void AddRow(Columns... columns) {
    uint64_t h = 0xcbf29ce484222325ULL;
    ((h ^= static_cast<uint64_t>(columns) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2),
      h *= 0x100000001b3ULL),
     ...);
    m_sum += h;
  }
  void Add(const EventsHash& part) { m_sum += part.m_sum; }
  uint64_t value() const { return m_sum; }

 private:
  uint64_t m_sum = 0;
};

}  // namespace core::cache
