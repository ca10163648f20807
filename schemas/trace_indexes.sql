-- Indexes of a fencescope trace, created by the writer after every row is in place. The events
-- table itself is served by the block range index `event_blocks` (see trace_schema.sql), which
-- the writer fills as it appends; these are the small tables' indexes.
CREATE INDEX counter_samples_by_series ON counter_samples(series_id, ts_ns);
CREATE INDEX flows_by_from ON flows(from_event);
CREATE INDEX flows_by_to ON flows(to_event);
CREATE INDEX event_args_by_event ON event_args(event_rowid);
