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

package io.distlock.faults.client;

/**
 * What kind of locks the workers of a client take.
 */
public enum Workload {

	/**
	 * One exclusive key at a time, through the annotation or the template, half each.
	 */
	EXCLUSIVE,

	/**
	 * Two keys at once through {@code LockTemplate.executeAll} half of the time, and one
	 * exclusive key (annotation or template) the other half, so that multi-key and
	 * single-key holders of a key must exclude each other.
	 */
	MULTI,

	/**
	 * One of a key's permits through {@code LockTemplate.tryAcquire} with
	 * {@code LockRequest.withPermits}: at most {@link ClientSettings#permits()} holders
	 * of a key at once.
	 */
	PERMITS,

	/**
	 * Read holds ({@code LockMode.READ}) two times in three, and write locks otherwise:
	 * through the template with {@code LockMode.WRITE}, or the exclusive lock (the same
	 * lock) through the annotation or the template.
	 */
	READ_WRITE

}
