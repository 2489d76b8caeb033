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

package io.distlock.faults;

import java.util.Map;
import java.util.Set;

import io.distlock.faults.history.CheckReport;
import io.distlock.faults.history.History;
import io.distlock.faults.history.Violation;

/**
 * What a scenario run produced: the checked report, the number of faults injected, the
 * history itself for scenario-specific checks, and the summary line.
 *
 * @param name the scenario name
 * @param report what the checker found
 * @param faults how many faults were injected
 * @param notGuaranteed the kinds of violation measured but not failed on
 * @param history the history
 * @param summary the summary line
 * @param measurements figures measured by the fault plan
 */
record ScenarioResult(String name, CheckReport report, int faults, Set<Violation> notGuaranteed, History history,
		String summary, Map<String, Object> measurements) {

	/**
	 * Return the violations that the documented guarantees exclude.
	 * @return the number of violations that fail the scenario
	 */
	int violations() {
		return this.report.violations(this.notGuaranteed);
	}

}
