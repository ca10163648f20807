#include "tests/support/json_text.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <stdexcept>

#include "core/report/fail_if.h"
#include "tests/support/test_support.h"

namespace test_support {
namespace {

core::report::Json Convert(simdjson::dom::element e) {
  using core::report::Json;
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      Json out = Json::Array();
      simdjson::dom::array items;
      if (e.get_array().get(items)) return out;
      for (simdjson::dom::element item : items) out.Push(Convert(item));
      return out;
    }
    case simdjson::dom::element_type::OBJECT: {
      Json out = Json::Object();
      simdjson::dom::object fields;
      if (e.get_object().get(fields)) return out;
      for (auto field : fields) {
        out.Set(std::string(field.key), Convert(field.value));
      }
      return out;
    }
    case simdjson::dom::element_type::INT64: return Json(e.get_int64().value());
    case simdjson::dom::element_type::UINT64:
      return Json(static_cast<uint64_t>(e.get_uint64().value()));
    case simdjson::dom::element_type::DOUBLE: return Json(e.get_double().value());
    case simdjson::dom::element_type::STRING: return Json(std::string(e.get_string().value()));
    case simdjson::dom::element_type::BOOL: return Json(e.get_bool().value());
    case simdjson::dom::element_type::NULL_VALUE: return Json();
  }
  return Json();
}

}  // namespace

core::report::Json ParseJsonText(const std::string& text) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size()).get(root)) {
    throw std::runtime_error("not JSON: " + text.substr(0, 200));
  }
  return Convert(root);
}

core::report::Json RunFencescopeJson(const std::string& args) {
  CommandResult r = RunFencescope(args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return ParseJsonText(r.out);
}

int64_t IntAt(const core::report::Json& json, const std::string& path) {
  const core::report::Json* v = core::report::FindPath(json, path);
  EXPECT_NE(v, nullptr) << path;
  return v ? v->Int() : -1;
}

}  // namespace test_support
