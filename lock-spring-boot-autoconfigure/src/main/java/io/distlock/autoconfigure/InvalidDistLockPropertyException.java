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

package io.distlock.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at startup when a {@code distlock.*} property holds a value the locks cannot
 * work with, alone or together with another property: too few Redlock nodes, an SSL
 * bundle that does not exist, a replication timeout the command timeout would cut short.
 *
 * <p>
 * The value is never shown as given when it may hold credentials: a Redlock node URL is
 * reduced to its scheme.
 *
 * @see DistLockProperties
 */
class InvalidDistLockPropertyException extends IllegalStateException {

	private final String name;

	private final @Nullable Object value;

	private final String reason;

	private final String action;

	InvalidDistLockPropertyException(String name, @Nullable Object value, String reason, String action) {
		this(name, value, reason, action, null);
	}

	InvalidDistLockPropertyException(String name, @Nullable Object value, String reason, String action,
			@Nullable Throwable cause) {
		super(reason + ". " + action, cause);
		this.name = name;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	/**
	 * Return the name of the property at fault, such as {@code distlock.redlock.nodes}.
	 * @return the property name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Return the value of the property, in a form safe to show: Redlock node URLs are
	 * reduced to their scheme.
	 * @return the value, or {@code null} if it is not shown
	 */
	public @Nullable Object getValue() {
		return this.value;
	}

	/**
	 * Return why the value cannot be used.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

	/**
	 * Return what to change, for the failure analysis.
	 */
	String getAction() {
		return this.action;
	}

}
