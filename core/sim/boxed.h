// A value kept out of line and copied with its owner: absent until first written, read as T{}
// while absent. For the rarely set parts of a record that is held by the hundred thousand (a
// derived program's steps), so that the common record stays small.
#pragma once

#include <memory>

namespace core::sim {

template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& other)
      : m_value(other.m_value ? std::make_unique<T>(*other.m_value) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) m_value = other.m_value ? std::make_unique<T>(*other.m_value) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;

  // The value, T{} when none was ever written.
  const T& get() const { return m_value ? *m_value : Default(); }
  // The value to write, made on first use.
  T& edit() {
    if (!m_value) m_value = std::make_unique<T>();
    return *m_value;
  }
  bool has_value() const { return m_value != nullptr; }

 private:
  static const T& Default() {
    static const T kDefault{};
    return kDefault;
  }
  std::unique_ptr<T> m_value;
};

}  // namespace core::sim
