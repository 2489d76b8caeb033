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
 * The distlock API: {@link io.distlock.LockTemplate} to take locks in code,
 * {@link io.distlock.LockHandle} for one held lock, and the exceptions that tell a busy
 * lock ({@link io.distlock.LockAcquisitionException}) from a broken backend
 * ({@link io.distlock.LockBackendException}).
 */
@NullMarked
package io.distlock;

import org.jspecify.annotations.NullMarked;
