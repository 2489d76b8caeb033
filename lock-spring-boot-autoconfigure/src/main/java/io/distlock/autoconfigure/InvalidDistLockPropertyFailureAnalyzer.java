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

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Reports an {@link InvalidDistLockPropertyException}: the property, where it is set, its
 * value (Redlock node URLs reduced to their scheme), why it cannot be used, and what to
 * change.
 */
class InvalidDistLockPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidDistLockPropertyException> {

	private final Environment environment;

	InvalidDistLockPropertyFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidDistLockPropertyException cause) {
		StringBuilder description = new StringBuilder();
		description.append("Invalid value for configuration property '").append(cause.getName()).append("'");
		Origin origin = origin(cause.getName());
		if (origin != null) {
			description.append(" (originating from '").append(origin).append("')");
		}
		description.append(String.format(":%n%n    Value: %s%n    Reason: %s", cause.getValue(), cause.getReason()));
		return new FailureAnalysis(description.toString(), cause.getAction() + ".", cause);
	}

	private @Nullable Origin origin(String name) {
		// A list set in YAML or by index has no origin of its own, only its elements do.
		for (String candidate : new String[] { name, name + "[0]" }) {
			ConfigurationPropertyName propertyName = ConfigurationPropertyName.of(candidate);
			for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
				ConfigurationProperty property = source.getConfigurationProperty(propertyName);
				if (property != null) {
					return property.getOrigin();
				}
			}
		}
		return null;
	}

}
