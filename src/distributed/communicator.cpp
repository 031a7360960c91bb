// SPDX-License-Identifier: MIT
// What every Communicator shares (see communicator.h).
#include "distributed/communicator.h"

#include <stdexcept>
#include <string>

#include "distributed/start_ranks.h"

namespace formica::distributed {

void expect_gather_sizes(size_t mine, size_t all, int size, const char* operation) {
  if (all != mine * static_cast<size_t>(size))
    throw std::invalid_argument(std::string(operation) + ": " + std::to_string(size) + " ranks of " +
                                std::to_string(mine) + " values need " + std::to_string(mine * size) +
                                ", got room for " + std::to_string(all));
}

int Communicator::local_gpus() const { return host_gpus(); }

}  // namespace formica::distributed
