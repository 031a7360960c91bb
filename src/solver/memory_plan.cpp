// SPDX-License-Identifier: MIT
// The memory plan of a run (see solver.h: memory_plan, expect_islands_fit): what one island's search
// allocates on the host and the device, checked against what the machine has before anything is
// allocated.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "aco/colony_memory.h"
#include "aco/cpu/ant_system.h"
#include "core/error.h"
#include "core/memory.h"
#include "cuda/device.h"
#include "solver/route_solver.h"
#include "solver/solver.h"

namespace formica {

namespace {

/// Host bytes a search holds per city besides its own structures below: candidate and neighbour
/// lists, the k-d tree, climbers' position arrays, the polish's lists (measured with peak RSS
/// against the plan on generated instances of 1,000 to 500,000 cities, 2 threads).
constexpr size_t kListBytesPerCity = 640;
/// Host bytes each of a search's threads holds whatever n: the pages of its stack it touches and
/// its malloc arena's first heap (peak RSS of 1 against 16 and 32 threads, 1,000 and 10,000 cities).
constexpr size_t kThreadBytes = size_t{256} << 10;

/// The process's resident set now (/proc/self/statm), 0 where it cannot be read.
size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace

namespace {

/// What one island's search allocates on the host and the device, and what takes it.
struct SearchBytes {
  size_t host = 0, device = 0;
  std::string what;
};

SearchBytes search_bytes(const Instance& instance, const SolverConfig& config, Backend backend) {
  const Algorithm a = config.algorithm;
  const int threads = config.threads > 0 ? config.threads : hardware_threads();
  const bool gpu = backend == Backend::Cuda;
  const size_t n = static_cast<size_t>(instance.n());
  // What one island's search allocates, on top of what the process holds now (the program, the
  // instance, and the matrix of an asymmetric instance's symmetric form), and the dense form of a
  // path that the GPU's kernels take (built once, whatever the islands).
  size_t host = kListBytesPerCity * n + kThreadBytes * static_cast<size_t>(threads_per_island(config)), device = 0;
  std::string what;
  switch (a) {
    case Algorithm::Mmas:
    case Algorithm::Acs:
    case Algorithm::Gaco: {
      const aco::ColonyMemory need = aco::colony_memory(instance.n(), colony_config(config, threads), gpu);
      host += need.host, device += need.device;
      what = "pheromone on candidate edges only";
      break;
    }
    case Algorithm::Eax:
      host += 3 * sizeof(int32_t) * n * static_cast<size_t>(config.eax.population);
      if (config.eax.climb == population::EaxClimb::LinKernighan)  // the chains' own lists
        host += sizeof(int32_t) * n * static_cast<size_t>(config.eax.chain_neighbours);
      what = concat("GA-EAX's first population of ", config.eax.population, " tours");
      break;
    case Algorithm::AntSystem:
      if (!gpu) {  // dense n x n matrices: heuristic, pheromone, fitness (float), prefix sums (double) if used
        host += aco::AntSystemCpu::memory_bytes(instance.n(), config.ant_system);
        what = "Ant System's dense matrices";
      }
      break;
    case Algorithm::TwoOpt:
    case Algorithm::Auto: break;
  }
  return {host, device, what};
}

}  // namespace

void expect_islands_fit(const Instance& instance, const SolverConfig& config, Backend backend) {
  if (config.islands <= 1) return;
  const size_t islands = static_cast<size_t>(config.islands);
  expect_memory(resident_bytes() + islands * search_bytes(instance, config, backend).host, available_host_memory(),
                concat(config.islands, " islands of ", to_string(config.algorithm), " for n = ", instance.n()));
}

std::string memory_plan(const Instance& instance, const SolverConfig& config, Backend backend) {
  const bool gpu = backend == Backend::Cuda;
  const auto [host, device, what] = search_bytes(instance, config, backend);
  const size_t islands = static_cast<size_t>(std::max(1, config.islands));
  // A path the GPU's kernels take is built in its dense form before the search (RouteProblem::solve).
  const size_t dense = instance.has_path_city() && gpu_kernels_take_the_path(config, backend)
                           ? dense_path_bytes(instance.n() - 1) : 0;
  const size_t now = resident_bytes() + dense;
  const std::optional<size_t> available = available_host_memory();
  std::string text = concat("host ", format_bytes(now + islands * host), " (", format_bytes(now),
                            dense > 0 ? " in use with the path's dense matrix, " : " in use, ",
                            format_bytes(host), islands > 1 ? concat(" per island x ", islands) : std::string(),
                            " for the search)", available ? concat(" of ", format_bytes(*available), " available") : "");
  if (gpu && device > 0) {
    // The device's size, not its free memory: that needs the CUDA context, which is still being
    // created while the plan is printed. The search checks the free memory before it allocates.
    const auto found = cuda::find_device();
    text += concat(", GPU ", format_bytes(device), found ? concat(" of ", format_bytes(capped_memory(found->global_memory))) : std::string());
  }
  return what.empty() ? text : concat(text, " (", what, ")");
}

}  // namespace formica
