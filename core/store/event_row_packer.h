// EventRowPacker: event rows packed into EventColumns one at a time, in rowid order, with what
// the loader needs to know about them once they are all in: the events hash, whether their
// times never decrease and whether their rowids follow one another.
//
// The loader packs the rows it reads from a trace file with it (trace_loader.cpp, one packer
// per half of the rowid range); TraceWriter::KeepEvents packs the rows it writes with it, so that
// the trace it has just written can be analysed without reading its rows back
// (LoadTraceWithEvents, the map step of a fleet). Both give the same columns and hash for the
// same rows, because they are the same code on the same values (a NULL id reads back as 0,
// which is what the writer stores a 0 id as).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cache/trace_cache.h"
#include "core/model/event_record.h"
#include "core/model/types.h"
#include "core/store/trace_store.h"

namespace core::store {

class EventRowPacker {
 public:
  // `first_rowid`: the rowid the first row is expected to have (rows are dense while each rowid
  // is the one before plus one).
  explicit EventRowPacker(EventRowId first_rowid = 1) : m_next_rowid(first_rowid) {}

  void Reserve(size_t rows) {
    ForEachColumn(columns, [&](auto& column) { column.Reserve(rows); });
  }

  void Add(EventRowId rowid, const EventRecord& r) {
    if (r.ts < last_ts && rows > 0) sorted = false;
    if (rows++ == 0) first_ts = r.ts;
    last_ts = r.ts;
    if (rowid != m_next_rowid++) dense = false;
    hash.AddRow(rowid, r.ts, r.kind, r.queue, r.thread, r.fence, r.value, r.op, r.arg0, r.arg1,
                r.arg2, r.flags);
    m_block.Add(rowid, r);
    if (m_block.n == Block::kRows) m_block.PackInto(columns);
  }

  // Packs the rows of the last, partial block. Call once after the last Add (more Adds may
  // follow; they start a new block).
  void Flush() { m_block.PackInto(columns); }

  // Calls f(column) for every column of `c`, rowid included.
  template <typename F>
  static void ForEachColumn(EventColumns& c, F f) {
    f(c.ts);
    f(c.kind);
    f(c.queue);
    f(c.thread);
    f(c.fence);
    f(c.value);
    f(c.op);
    f(c.arg0);
    f(c.arg1);
    f(c.arg2);
    f(c.flags);
    f(c.rowid);
  }

  EventColumns columns;  // being built: Finish() not called yet
  cache::EventsHash hash;
  size_t rows = 0;
  bool sorted = true;  // ts never decreases in rowid order
  bool dense = true;   // rowids are first_rowid, first_rowid + 1, ...
  TimeNs first_ts = 0, last_ts = 0;

 private:
  // Up to 64 rows as added (the columns of one packed block), before they are packed: rows are
  // packed as they come, with no column of plain values in between (at 10M rows that would be
  // 730 MB to fault in and pack again).
  struct Block {
    static constexpr size_t kRows = PackedColumn<TimeNs>::kBlock;
    TimeNs ts[kRows];
    EventKind kind[kRows];
    QueueId queue[kRows];
    ThreadId thread[kRows];
    FenceId fence[kRows];
    uint64_t value[kRows];
    int64_t op[kRows], arg0[kRows], arg1[kRows], arg2[kRows];
    uint32_t flags[kRows];
    EventRowId rowid[kRows];
    size_t n = 0;

    void Add(EventRowId id, const EventRecord& r) {
      ts[n] = r.ts;
      kind[n] = r.kind;
      queue[n] = r.queue;
      thread[n] = r.thread;
      fence[n] = r.fence;
      value[n] = r.value;
      op[n] = r.op;
      arg0[n] = r.arg0;
      arg1[n] = r.arg1;
      arg2[n] = r.arg2;
      flags[n] = r.flags;
      rowid[n] = id;
      ++n;
    }
    void PackInto(EventColumns& c) {
      if (n == 0) return;
      c.ts.AppendBlock(ts, n);
      c.kind.AppendBlock(kind, n);
      c.queue.AppendBlock(queue, n);
      c.thread.AppendBlock(thread, n);
      c.fence.AppendBlock(fence, n);
      c.value.AppendBlock(value, n);
      c.op.AppendBlock(op, n);
      c.arg0.AppendBlock(arg0, n);
      c.arg1.AppendBlock(arg1, n);
      c.arg2.AppendBlock(arg2, n);
      c.flags.AppendBlock(flags, n);
      c.rowid.AppendBlock(rowid, n);
      n = 0;
    }
  };
  Block m_block;
  EventRowId m_next_rowid;
};

}  // namespace core::store
