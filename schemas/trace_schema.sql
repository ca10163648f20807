-- fencescope trace schema, version 1.
--
-- A trace file is an SQLite database holding what happened as timestamped records, the way an ETW
-- trace holds them: topology tables (adapters, engines, HW queues, processes, contexts, threads,
-- fences, ...) plus one compact `events` table. Pairing (queued -> executed, queued -> unblocked),
-- intervals and dependencies are derived from the records by core/analysis, never stored as truth.
--
-- Conventions
--   * Every time is an integer in nanoseconds on the trace's single time base (column names end in
--     `_ns`). `meta` says which clock that is and where the trace starts and ends.
--   * Ids are small positive integers assigned by the writer; 0 is never used, NULL means "none".
--   * Fence values are UINT64 in the model; SQLite stores them as the same 64 bits read as a
--     signed INTEGER, so UINT64_MAX reads back as -1 in SQL (the C++ loader restores it).
--   * Strings used many times (names, categories) are interned in `strings`; columns holding such a
--     reference end in `_sid`.
--   * Enumerations are small integers; the tables `event_kinds` and `enum_values` name them so that
--     SQL users can join instead of memorising numbers.
--
-- The application refuses a file whose `PRAGMA user_version` is not one it knows, or that lacks
-- the `meta` row `format` = 'fencescope-trace'.

PRAGMA user_version = 1;
-- 0x66656e63, the bytes "fenc" at offset 68 of the file: tells a fencescope trace from other SQLite
-- databases by content (the shared-mime-info entry in packaging/fencescope.xml matches on it).
-- Traces written before it was set have 0 there and still open.
PRAGMA application_id = 1717923427;

-- Trace-wide facts as key/value text.
--   format          always 'fencescope-trace' (identifies the file)
--   schema_version  '1'
--   source          'simulator' | 'chrome-json' | 'etl' | ... (who wrote the records)
--   source_file     path of the imported file, when imported
--   clock           name of the time base, e.g. 'sim-gpu-ns' or 'qpc'
--   start_ns        where the trace starts: its first timestamp, or earlier when the writer knows
--                   the capture began before it (a simulated run starts at 0)
--   end_ns          where the trace ends: its last timestamp, or the end the writer knows
--   events          number of rows in `events`
--   events_sorted   '1' when rowid order is non-decreasing ts_ns order (the writer tracks it)
--   created_by      program and version that wrote the file
--   scenario, seed, fence_mode, ...  free-form facts a writer adds
CREATE TABLE meta (
  key   TEXT PRIMARY KEY NOT NULL,  -- meta key (see the list above)
  value TEXT NOT NULL  -- the fact as text
) WITHOUT ROWID;

-- Interned strings.
CREATE TABLE strings (
  id    INTEGER PRIMARY KEY,  -- referenced by every *_sid column
  value TEXT NOT NULL  -- the string
);

-- Names for small integer enumerations used in other tables.
CREATE TABLE enum_values (
  enum_name TEXT NOT NULL,     -- e.g. 'engine_type', 'fence_kind'
  value     INTEGER NOT NULL,  -- the number stored in the data tables
  name      TEXT NOT NULL,     -- lower-case name, e.g. '3d', 'native'
  PRIMARY KEY (enum_name, value)
) WITHOUT ROWID;

-- One GPU (or display adapter).
CREATE TABLE adapters (
  id                       INTEGER PRIMARY KEY,
  name_sid                 INTEGER NOT NULL,           -- e.g. 'iGPU', 'dGPU'
  luid                     INTEGER,                    -- adapter LUID when the source has one
  native_fences            INTEGER NOT NULL DEFAULT 0, -- 1: supports WDDM 3.2 native GPU fences
  optimized_interrupts     INTEGER NOT NULL DEFAULT 0, -- 1: OptimizedNativeFenceSignaledInterrupt cap
  preemption_graphics      INTEGER NOT NULL DEFAULT 0, -- enum preemption_granularity (0 = none)
  preemption_compute       INTEGER NOT NULL DEFAULT 0  -- enum preemption_granularity (0 = none)
);

-- One engine (node) of an adapter.
CREATE TABLE engines (
  id          INTEGER PRIMARY KEY,
  adapter_id  INTEGER NOT NULL REFERENCES adapters(id),  -- adapters.id
  type        INTEGER NOT NULL,  -- enum engine_type: 0 3d, 1 compute, 2 copy, 3 video, 4 other
  ordinal     INTEGER NOT NULL,  -- engine ordinal within the adapter (node ordinal for ETW)
  name_sid    INTEGER NOT NULL  -- strings.id of the display name
);

-- A queue work is executed from: a hardware queue (HWQueue) of an engine, or a per-context
-- software queue (ETW QueuePacket lanes), or a device stream of an imported GPU trace.
CREATE TABLE queues (
  id          INTEGER PRIMARY KEY,
  engine_id   INTEGER REFERENCES engines(id),  -- NULL when the source does not say
  adapter_id  INTEGER REFERENCES adapters(id),  -- adapters.id
  type        INTEGER NOT NULL,   -- enum queue_type: 0 3d, 1 compute, 2 copy, 3 video, 4 software, 5 other
  priority    INTEGER NOT NULL DEFAULT 0,  -- higher runs first; 0 normal
  process_id  INTEGER REFERENCES processes(id),  -- processes.id
  name_sid    INTEGER NOT NULL,  -- strings.id of the display name
  sort_index  INTEGER NOT NULL DEFAULT 0   -- display order hint from the source
);

-- A CPU process (an application, the OS, the runtime).
CREATE TABLE processes (
  id        INTEGER PRIMARY KEY,
  pid       INTEGER,           -- OS process id as the source gives it (may be negative for imports)
  name_sid  INTEGER NOT NULL  -- strings.id of the display name
);

-- A GPU context (device + queue binding), the unit packets are coloured by.
CREATE TABLE contexts (
  id          INTEGER PRIMARY KEY,
  process_id  INTEGER REFERENCES processes(id),  -- processes.id
  queue_id    INTEGER REFERENCES queues(id),  -- queues.id
  handle      INTEGER,         -- source handle (hContext for ETW)
  name_sid    INTEGER NOT NULL  -- strings.id of the display name
);

-- A CPU thread that records, submits, waits, or runs background tasks.
CREATE TABLE threads (
  id          INTEGER PRIMARY KEY,
  process_id  INTEGER REFERENCES processes(id),  -- processes.id
  tid         INTEGER,           -- OS thread id as the source gives it
  kind        INTEGER NOT NULL DEFAULT 0,  -- enum thread_kind: 0 application, 1 runtime background, 2 os
  name_sid    INTEGER NOT NULL,  -- strings.id of the display name
  sort_index  INTEGER NOT NULL DEFAULT 0  -- display order hint from the source
);

-- A fence (synchronisation object).
CREATE TABLE fences (
  id                 INTEGER PRIMARY KEY,
  name_sid           INTEGER NOT NULL,  -- strings.id of the display name
  kind               INTEGER NOT NULL,  -- enum fence_kind: 0 native, 1 monitored, 2 cross_adapter, 3 other
  shared             INTEGER NOT NULL DEFAULT 0,  -- 1 when shareable between processes/adapters
  owner_adapter_id   INTEGER REFERENCES adapters(id),  -- adapters.id of the adapter that created it
  adapter_mask       INTEGER NOT NULL DEFAULT 0,  -- bit (adapter_id - 1) set for each adapter it is opened on
  initial_value      INTEGER NOT NULL DEFAULT 0,  -- CurrentValue at creation
  handle             INTEGER            -- source handle (sync object handle for ETW)
);

-- A pipeline state object whose shaders the driver may specialise (background PGO).
CREATE TABLE psos (
  id          INTEGER PRIMARY KEY,
  name_sid    INTEGER NOT NULL,  -- strings.id of the display name
  shaders     INTEGER NOT NULL DEFAULT 1  -- number of shaders in the PSO
);

-- A resource whose accesses are recorded for hazard checks.
CREATE TABLE resources (
  id          INTEGER PRIMARY KEY,
  name_sid    INTEGER NOT NULL,  -- strings.id of the display name
  size_bytes  INTEGER NOT NULL DEFAULT 0  -- size of the resource
);

-- A named counter series (Chrome 'C' events, rates).
CREATE TABLE counter_series (
  id          INTEGER PRIMARY KEY,
  name_sid    INTEGER NOT NULL,   -- 'name' or 'name[id]' plus '.key' for each args key
  process_id  INTEGER REFERENCES processes(id),  -- processes.id
  unit_sid    INTEGER  -- strings.id of the unit, NULL when none
);

CREATE TABLE counter_samples (
  series_id  INTEGER NOT NULL REFERENCES counter_series(id),  -- counter_series.id
  ts_ns      INTEGER NOT NULL,  -- sample time
  value      REAL NOT NULL  -- sample value
);

-- The event records. One row per thing that happened. The meaning of the generic columns
-- depends on `kind` (see `event_kinds.columns`, and the per-kind views below, which give them
-- their names). Rows are appended in any order; `meta.events_sorted` says whether rowid order is
-- time order, and the loader sorts when it is not.
CREATE TABLE events (
  ts_ns      INTEGER NOT NULL,  -- when it happened
  kind       INTEGER NOT NULL,  -- event_kinds.id
  queue_id   INTEGER,           -- queues.id the event belongs to, if any
  thread_id  INTEGER,           -- threads.id the event happened on / was issued from, if any
  fence_id   INTEGER,           -- fences.id, if any
  value      INTEGER,           -- fence value (u64 bits), or a kind-specific quantity
  op_id      INTEGER,           -- identity that pairs records: packet id, fence operation id,
                                -- CPU waiter id, interrupt id, task id (see event_kinds.columns)
  arg0       INTEGER,           -- kind-specific
  arg1       INTEGER,           -- kind-specific
  arg2       INTEGER,           -- kind-specific
  flags      INTEGER            -- kind-specific bits or small enum (see event_kinds.columns)
);
-- Block range index of `events` (the idea of PostgreSQL's BRIN), written by the writer as it
-- appends: for each track, every run of up to 256 of its events gets one row with the time span
-- and rowid span of that run. It serves "one queue, one time window" at a fraction of the cost
-- of a B-tree over every event (which would double the time to write a trace):
--
--   SELECT e.* FROM event_blocks b
--     JOIN events e ON e.rowid BETWEEN b.first_rowid AND b.last_rowid
--   WHERE b.track_kind = 0 AND b.track_id = :queue AND b.end_ns >= :t0 AND b.start_ns <= :t1
--     AND e.queue_id = :queue AND e.ts_ns BETWEEN :t0 AND :t1;
--
-- The view `queue_events` wraps the track_kind = 0 case (filter it on queue_id and ts_ns).
CREATE TABLE event_blocks (
  track_kind   INTEGER NOT NULL,  -- 0 queue (events.queue_id), 1 thread (events.thread_id), 2 all events
  track_id     INTEGER NOT NULL,  -- queues.id or threads.id; 0 for track_kind 2
  start_ns     INTEGER NOT NULL,  -- least ts_ns of the run
  end_ns       INTEGER NOT NULL,  -- greatest ts_ns of the run
  first_rowid  INTEGER NOT NULL,  -- least events.rowid of the run
  last_rowid   INTEGER NOT NULL,  -- greatest events.rowid of the run
  events       INTEGER NOT NULL,  -- events of the track in the run
  PRIMARY KEY (track_kind, track_id, start_ns, first_rowid)
) WITHOUT ROWID;

-- Explicit links a source states (Chrome flows, ac2g launch links). Links the simulator's records
-- imply (signal -> wait) are derived by core/analysis, not stored here.
CREATE TABLE flows (
  from_event  INTEGER NOT NULL,  -- events.rowid of the source end
  to_event    INTEGER NOT NULL,  -- events.rowid of the destination end
  kind        INTEGER NOT NULL,  -- enum flow_kind: 0 generic, 1 cpu_launch (ac2g), 2 fence
  name_sid    INTEGER  -- strings.id of the display name
);

-- Extra key/value arguments of an event, kept by importers for the details panel.
CREATE TABLE event_args (
  event_rowid  INTEGER NOT NULL,   -- events.rowid
  key_sid      INTEGER NOT NULL,  -- strings.id of the argument name
  int_value    INTEGER,  -- value when an integer, else NULL
  real_value   REAL,  -- value when a real number, else NULL
  text_sid     INTEGER  -- strings.id of the value when text, else NULL
);

-- Named counters of what an importer or the simulator could not read or link, the way
-- Perfetto's stats table works. One row per name.
CREATE TABLE import_problems (
  name         TEXT PRIMARY KEY NOT NULL,  -- e.g. 'json_unknown_phase', 'etl_unknown_event'
  severity     INTEGER NOT NULL,           -- enum severity: 0 info, 1 error, 2 data_loss
  count        INTEGER NOT NULL,  -- how many times it happened
  description  TEXT NOT NULL,  -- what the counter means
  first_place  TEXT NOT NULL DEFAULT ''    -- where it was first seen (byte offset, row, line)
) WITHOUT ROWID;

-- The event kinds: number, name, and what the generic columns mean for that kind.
CREATE TABLE event_kinds (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE,  -- lower-case name, also the name of the kind's view
  columns  TEXT NOT NULL   -- which generic columns carry what
);

