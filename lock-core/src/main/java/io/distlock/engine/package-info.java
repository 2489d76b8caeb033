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
 * The engine under every front door: one acquisition pipeline (owner token, local queue,
 * store, then renew, track, wake, observe, report) for blocking, async, multi-key,
 * reactive and leader-election locks, the release policies, re-entry, and the one
 * registry of held locks.
 * <p>
 * Applications use the front doors ({@code io.distlock.LockTemplate},
 * {@code io.distlock.reactive.ReactiveLockTemplate}, {@code io.distlock.leader}) and
 * {@link io.distlock.LockSettings}, the settings those share. The other public types here
 * are entry points for those front doors, not API: they may change in any release.
 */
@NullMarked
package io.distlock.engine;

import org.jspecify.annotations.NullMarked;
