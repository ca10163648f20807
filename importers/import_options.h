// Options every importer takes (shared by the import dispatcher and the importers).
#pragma once

#include <cstdint>
#include <functional>

#include "importers/common/compressed_input.h"

namespace core::store {
class EventRowPacker;
}

namespace importers {

struct ImportOptions {
  // Skip malformed events (and a file cut off inside its last event), counting them as import
  // problems, instead of failing.
  bool lenient = false;
  // Most bytes a gzip stream or zip member may inflate to (--max-inflated); more is an error
  // naming the file and the compressed byte where the limit was passed.
  uint64_t max_inflated = kDefaultMaxInflated;
  // Fraction of the import done, in [0, 1]; may be empty.
  std::function<void(double)> progress;
  // Parse the middle of a large Chrome JSON event array on a second core as well. Off in the
  // workers of a fleet, where the other workers keep the other cores busy: the parse on one
  // core costs less CPU time in all (no parts to merge) and holds less memory at its peak.
  bool parse_in_parallel = true;
  // Build part of the trace's rows on a helper thread (TraceWriter); off in a fleet's workers
  // for the same reason: there, inserting every row on one thread costs less CPU time in all.
  bool write_on_helper_thread = true;
  // Chrome JSON: start no thread at all. The scanner that finds where each event ends, the
  // check of the bracket kinds and the freeing of the parse's tables then run on the calling
  // thread, in the order that gives the same records, problems and errors. For imports too
  // small for a thread's start to pay (the fuzz harness imports thousands a second).
  bool helper_threads = true;
  // When set, the events written are also kept here, packed (TraceWriter::KeepEvents), so that
  // the new trace can be analysed without reading its rows back (LoadTraceWithEvents). Only by
  // the Chrome JSON importer, which reaches its peak memory while it parses, before it writes an
  // event: keeping them costs it no more at its peak. The other importers write as they read,
  // their peak at the end, where the kept events would add to it; for them this stays empty.
  core::store::EventRowPacker* kept_events = nullptr;
};

}  // namespace importers
