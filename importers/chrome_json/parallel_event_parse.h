// Parses the middle of the event array on both cores without the byte-by-byte scanner: the text
// is cut into pieces of about half a megabyte at places that look like the end of an event
// (`}`, `,`, `{` with only white space between), and each piece is parsed as one simdjson
// document. Pieces are taken in file order by whichever thread is free: the second thread parses
// into parts that this thread merges in file order; this thread parses straight into the trace
// when every piece before is merged, else into a part of its own.
//
// A cut in the wrong place (inside an argument array of objects, say) cannot go unnoticed: a
// piece starts where an event really starts (the first one does, and each next one starts where
// the one before ended), so it parses as a list of events only when its end is the end of one
// too; otherwise it fails like a malformed event would. A piece that fails, and the end of the
// array, are left to the scanner, which finds the events one by one and names the place of
// whatever is wrong; then pieces start again after the failed one.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "importers/chrome_json/chrome_event_parser.h"

namespace importers::chrome_json {

// Where the pieces stopped: `resume` is the first byte of the first event not parsed (every
// event before it has been parsed into the parser). `failed_end` is 0 when the pieces reached
// the last cut (what is left is the end of the array); otherwise the piece [resume, failed_end)
// did not parse as a list of events (a cut inside an event, or a malformed event), and the
// caller reads it with the scanner before it goes on with pieces.
struct ParallelParseStop {
  uint64_t resume = 0;
  uint64_t failed_end = 0;
};

// `start` is the first byte of an event of the array in `content`. `progress` gets the offset
// reached.
//
// simdjson checks that the brackets of a value it skips unread balance, not that each closes its
// own kind; FindBracketMismatch (json_container_scanner.h) checks that. With `unchecked` null it
// runs before each piece's parse, and a piece that fails it goes to the scanner (which names the
// place, or with --lenient skips that event). Otherwise every parsed piece is appended to
// *unchecked and the caller checks them (the import does, on the second core, while the records
// are written, and fails if one does not pass).
ParallelParseStop ParseEventsInParallel(std::string_view content, uint64_t start,
                                        ChromeEventParser& parser,
                                        const std::function<void(uint64_t)>& progress,
                                        std::vector<PieceRange>* unchecked);

}  // namespace importers::chrome_json
