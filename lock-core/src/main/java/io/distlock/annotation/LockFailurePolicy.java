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

package io.distlock.annotation;

/**
 * What a {@link DistributedLocked} method does when its lock stays busy for the whole
 * wait time. The method body never runs without the lock.
 */
public enum LockFailurePolicy {

	/**
	 * {@link #THROW}, except on a method that is also {@code @Scheduled}: {@link #SKIP},
	 * logged at DEBUG, since another instance runs the job. The default, so that any
	 * policy given explicitly wins.
	 */
	DEFAULT,

	/**
	 * Throw {@link io.distlock.LockAcquisitionException}.
	 */
	THROW,

	/**
	 * Skip the call: return {@code null}, or an empty {@link java.util.Optional} for a
	 * method returning one. Not allowed on methods returning a primitive.
	 */
	SKIP,

	/**
	 * Call the {@link DistributedLocked#fallbackMethod() fallback method} instead, with
	 * the same arguments, and return its result.
	 */
	FALLBACK

}
