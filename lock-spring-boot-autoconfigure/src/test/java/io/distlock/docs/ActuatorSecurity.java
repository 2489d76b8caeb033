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

package io.distlock.docs;

import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * docs/operations.md's first snippet: the Actuator endpoints behind Spring Security,
 * force release for the role {@code OPS} only (OperationsSnippetIntegrationTests).
 */
@Configuration(proxyBeanMethods = false)
public class ActuatorSecurity {

	@Bean
	SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
		http.securityMatcher(EndpointRequest.toAnyEndpoint());
		http.authorizeHttpRequests((requests) -> requests.requestMatchers(EndpointRequest.to("health", "prometheus"))
			.permitAll()
			.requestMatchers(HttpMethod.DELETE, "/actuator/locks/**")
			.hasRole("OPS")
			.anyRequest()
			.authenticated());
		http.httpBasic(Customizer.withDefaults());
		// Called by scripts and curl, not from a browser session: no CSRF token to send.
		http.csrf((csrf) -> csrf.disable());
		return http.build();
	}

}
