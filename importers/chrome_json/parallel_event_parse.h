// Parses the middle of the event array on both cores without the byte-by-byte scanner: the text
// is cut into pieces of about a megabyte at places that look like the end of an event (`}`,
// `,`, `{` with only white space between), and each piece is parsed as one simdjson document,
// alternately on this thread (straight into the trace) and on a second thread (into a part that
// this thread merges in file order).
//
// A cut in the wrong place (inside an argument object, say) cannot go unnoticed: a piece starts
// where an event really starts, so it parses as a list of events only when its end is the end
// of one too; otherwise it fails like a malformed event would. The first piece that fails, and
// the end of the array (the last megabyte or two), are left to the scanner, which finds the
// events one by one and names the place of whatever is wrong.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "importers/chrome_json/chrome_event_parser.h"

namespace importers::chrome_json {

// `start` is the first byte of an event of the array in `content`. Returns the first byte of
// the event where the scanner must go on (every event before it has been parsed into `parser`).
// `progress` gets the offset reached.
uint64_t ParseEventsInParallel(std::string_view content, uint64_t start, ChromeEventParser& parser,
                               const std::function<void(uint64_t)>& progress);

}  // namespace importers::chrome_json
