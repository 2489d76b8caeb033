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

package io.distlock.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The sample's own settings, under {@code sample.*}.
 *
 * @param node the name of this node, returned with every purchase
 * @param thinkTime how long a purchase pauses between reading and writing the stock
 * @param stocktakeDuration how long a stocktake works (whole seconds)
 * @param stocktakeTtl the ttl of a stocktake's lock: shorter than the work, so the lock
 * is only kept by renewal
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue("local") String node, @DefaultValue("20ms") Duration thinkTime,
		@DefaultValue("5s") Duration stocktakeDuration, @DefaultValue("2s") Duration stocktakeTtl) {

}
