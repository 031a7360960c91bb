// SPDX-License-Identifier: MIT
// What the colony variants allocate for n cities, computed before anything is allocated: the CPU
// search checks its host bytes and the GPU search its device bytes against what is free
// (core/memory.h), and the command line prints both. Everything is O(n k) per matrix plus O(n) per
// ant: pheromone lives on candidate edges only, so 200,000 cities fit easily.
#pragma once

#include <cstddef>

#include "aco/colony_config.h"

namespace formica::aco {

struct ColonyMemory {
  size_t host = 0;    ///< bytes on the host (the CPU backend: everything)
  size_t device = 0;  ///< bytes on the GPU (the cuda backend; 0 for the CPU backend)
};

/// Bytes of the search for n cities with `config` (its ants resolved as ColonyConfig::ants_of says)
/// on the CPU (threads = its worker threads) or the GPU.
ColonyMemory colony_memory(int n, const ColonyConfig& config, bool gpu);

}  // namespace formica::aco
