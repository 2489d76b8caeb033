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

package io.distlock.autoconfigure.actuate;

import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the {@link LocksEndpoint locks endpoint}, in the shape of
 * Spring Boot's {@code management.endpoint.env} properties: lock keys are values, often
 * customer or order ids, masked unless shown.
 */
@ConfigurationProperties("management.endpoint.locks")
public class LocksEndpointProperties {

	/**
	 * When to show lock keys unmasked. Masked keys read ******; lock names, fencing
	 * tokens, times, modes and permits are always shown. With when-authorized, a request
	 * without an authenticated user (such as a JMX call) sees masked keys.
	 */
	private Show showValues = Show.NEVER;

	/**
	 * Roles used to determine whether a user is authorized to be shown lock keys
	 * unmasked. When empty, all authenticated users are authorized.
	 */
	private final Set<String> roles = new LinkedHashSet<>();

	public Show getShowValues() {
		return this.showValues;
	}

	public void setShowValues(Show showValues) {
		this.showValues = showValues;
	}

	public Set<String> getRoles() {
		return this.roles;
	}

}
