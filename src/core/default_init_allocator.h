// SPDX-License-Identifier: MIT
// An allocator whose containers leave new elements default-initialised: a std::vector<int32_t> of
// them sized to gigabytes takes address space at once and its pages only as they are written,
// where a plain resize() writes zeros over all of it first (seconds, before any deadline is looked
// at). For buffers every element of which is written before it is read (the ants' tours).
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace formica {

template <class T, class Base = std::allocator<T>>
class DefaultInitAllocator : public Base {
 public:
  using Base::Base;
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U, typename std::allocator_traits<Base>::template rebind_alloc<U>>;
  };

  /// Without arguments: default-initialised (for int32_t, not written at all).
  template <class U>
  void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    std::allocator_traits<Base>::construct(static_cast<Base&>(*this), at, std::forward<Args>(args)...);
  }
};

}  // namespace formica
