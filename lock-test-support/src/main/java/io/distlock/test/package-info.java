/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

/**
 * Real {@code redis-server} processes for tests: started on free loopback ports, alone or
 * as a Redis Cluster, and stopped, killed, paused, restarted or failed over on demand to
 * inject faults; and the contract suites a lock store passes on them:
 * {@link io.distlock.test.LockClientContractTests} (or
 * {@link io.distlock.test.FairLockClientContractTests}), and, each in a test class of its
 * own, {@link io.distlock.test.ReadWriteLockClientContractTests},
 * {@link io.distlock.test.PermitLockClientContractTests} and
 * {@link io.distlock.test.InspectableLockClientContractTests}.
 */
@NullMarked
package io.distlock.test;

import org.jspecify.annotations.NullMarked;
