//! The result JSON of a LoRR run, with the keys, order and meanings of the start-kit's
//! output for each edition (2023: `AllValid`, `sumOfCost`, events grouped per robot, tasks
//! as `[id, row, col]`; 2024: `version`, the error and timeout counts, the schedules, events
//! as `[timestep, robot, task, errands done]`, tasks as `[id, release, [row, col, ...]]`).

use std::fmt::Write;

use super::Edition;

/// A step the rules refused, or a planner that gave no actions: `[agent, other, timestep,
/// text]` in the file, with `-1` where no agent applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// The robot whose action broke a rule, or -1.
    pub agent: i64,
    /// The robot it collided with, or -1.
    pub other: i64,
    /// The timestep the bad move would have arrived at.
    pub timestep: u64,
    /// `unallowed move`, `vertex conflict`, `edge conflict` or `incorrect vector size`.
    pub text: &'static str,
}

/// What a run did, as the result JSON reports it. The runner fills it step by step.
#[derive(Clone, Debug)]
pub struct Record {
    /// The edition whose output shape is written.
    pub edition: Edition,
    /// The map's width, to turn cells into rows and columns.
    pub width: u32,
    /// Start cells (all facing East).
    pub starts: Vec<u32>,
    /// Per robot: the executed actions, one letter a timestep (`F`, `R`, `C`, `W`).
    pub actual: Vec<Vec<u8>>,
    /// Per robot: the planner's actions, `T` where it gave none.
    pub planned: Vec<Vec<u8>>,
    /// Seconds the simulator waited for the entry at each timestep.
    pub planner_times: Vec<f64>,
    /// Refused steps, in order.
    pub errors: Vec<RuleError>,
    /// Tasks finished (whole tasks in 2024).
    pub finished: u64,
    /// Timesteps played.
    pub timesteps: u64,
    /// 2023: per robot, the timesteps it had a task.
    pub cost: Vec<u64>,
    /// 2023: per robot, `(task id, timestep, "assigned" | "finished")`.
    pub events_2023: Vec<Vec<(u64, u64, &'static str)>>,
    /// 2023: `(task id, cell)` of every revealed task.
    pub tasks_2023: Vec<(u64, u32)>,
    /// 2024: timesteps lost because the entry was still computing.
    pub entry_timeouts: u64,
    /// 2024: per robot, `(timestep, task)` whenever its accepted task changed.
    pub actual_schedule: Vec<Vec<(u64, i64)>>,
    /// 2024: per robot, `(timestep, task)` whenever the proposed task changed.
    pub planner_schedule: Vec<Vec<(u64, i64)>>,
    /// 2024: refused schedules: `(text, task, agent, other agent, timestep)`.
    pub schedule_errors: Vec<(&'static str, i64, i64, i64, u64)>,
    /// 2024: `(timestep, robot, task, errands done)` each time a robot visits an errand.
    pub events_2024: Vec<(u64, u32, u64, u32)>,
    /// 2024: `(task id, release timestep, errand cells)` of every revealed task.
    pub tasks_2024: Vec<(u64, u64, Vec<u32>)>,
}

impl Record {
    /// An empty record for `starts` on a map `width` wide.
    pub fn new(edition: Edition, width: u32, starts: &[u32]) -> Record {
        let n = starts.len();
        Record {
            edition,
            width,
            starts: starts.to_vec(),
            actual: vec![Vec::new(); n],
            planned: vec![Vec::new(); n],
            planner_times: Vec::new(),
            errors: Vec::new(),
            finished: 0,
            timesteps: 0,
            cost: vec![0; n],
            events_2023: vec![Vec::new(); n],
            tasks_2023: Vec::new(),
            entry_timeouts: 0,
            actual_schedule: vec![Vec::new(); n],
            planner_schedule: vec![Vec::new(); n],
            schedule_errors: Vec::new(),
            events_2024: Vec::new(),
            tasks_2024: Vec::new(),
        }
    }

    /// The result JSON, as the start-kit writes it with its fullest output (`outputScreen`
    /// 1), one key a line.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.starts.len() * self.timesteps as usize * 5);
        out.push_str("{\n");
        let mut fields = Fields {
            out: &mut out,
            first: true,
        };
        fields.raw("actionModel", "\"MAPF_T\"");
        match self.edition {
            Edition::Lorr2023 => self.fields_2023(&mut fields),
            Edition::Lorr2024 => self.fields_2024(&mut fields),
        }
        out.push_str("\n}\n");
        out
    }

    fn fields_2023(&self, f: &mut Fields) {
        let valid = if self.errors.is_empty() {
            "\"Yes\""
        } else {
            "\"No\""
        };
        f.raw("AllValid", valid);
        f.raw("teamSize", &self.starts.len().to_string());
        f.raw("start", &self.starts_json());
        f.raw("numTaskFinished", &self.finished.to_string());
        f.raw("sumOfCost", &self.cost.iter().sum::<u64>().to_string());
        f.raw(
            "makespan",
            &self.cost.iter().max().unwrap_or(&0).to_string(),
        );
        self.paths_times_errors(f);
        let events = list(self.events_2023.iter().map(|per_agent| {
            list(
                per_agent
                    .iter()
                    .map(|(id, t, what)| format!("[{id},{t},\"{what}\"]")),
            )
        }));
        f.raw("events", &events);
        let w = self.width;
        let tasks = list(
            self.tasks_2023
                .iter()
                .map(|(id, c)| format!("[{id},{},{}]", c / w, c % w)),
        );
        f.raw("tasks", &tasks);
    }

    fn fields_2024(&self, f: &mut Fields) {
        f.raw("version", "\"2024 LoRR\"");
        f.raw("teamSize", &self.starts.len().to_string());
        f.raw("numTaskFinished", &self.finished.to_string());
        f.raw("makespan", &self.timesteps.to_string());
        f.raw("numPlannerErrors", &self.errors.len().to_string());
        f.raw("numScheduleErrors", &self.schedule_errors.len().to_string());
        f.raw("numEntryTimeouts", &self.entry_timeouts.to_string());
        f.raw("start", &self.starts_json());
        self.paths_times_errors(f);
        let schedule = |s: &[Vec<(u64, i64)>]| {
            list(s.iter().map(|per_agent| {
                let items: Vec<String> =
                    per_agent.iter().map(|(t, k)| format!("{t}:{k}")).collect();
                format!("\"{}\"", items.join(","))
            }))
        };
        f.raw("actualSchedule", &schedule(&self.actual_schedule));
        f.raw("plannerSchedule", &schedule(&self.planner_schedule));
        let errs = list(
            self.schedule_errors
                .iter()
                .map(|(text, task, a, b, t)| format!("[\"{text}\",{task},{a},{b},{t}]")),
        );
        f.raw("scheduleErrors", &errs);
        let events = list(
            self.events_2024
                .iter()
                .map(|(t, a, k, d)| format!("[{t},{a},{k},{d}]")),
        );
        f.raw("events", &events);
        let w = self.width;
        let tasks = list(self.tasks_2024.iter().map(|(id, release, cells)| {
            let rc: Vec<String> = cells
                .iter()
                .map(|c| format!("{},{}", c / w, c % w))
                .collect();
            format!("[{id},{release},[{}]]", rc.join(","))
        }));
        f.raw("tasks", &tasks);
    }

    fn starts_json(&self) -> String {
        let w = self.width;
        list(
            self.starts
                .iter()
                .map(|c| format!("[{},{},\"E\"]", c / w, c % w)),
        )
    }

    fn paths_times_errors(&self, f: &mut Fields) {
        let paths = |p: &[Vec<u8>]| {
            list(p.iter().map(|letters| {
                let mut s = String::with_capacity(letters.len() * 2 + 2);
                s.push('"');
                for (i, &l) in letters.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    s.push(l as char);
                }
                s.push('"');
                s
            }))
        };
        f.raw("actualPaths", &paths(&self.actual));
        f.raw("plannerPaths", &paths(&self.planned));
        f.raw(
            "plannerTimes",
            &list(self.planner_times.iter().map(|t| format!("{t}"))),
        );
        let errs = list(
            self.errors
                .iter()
                .map(|e| format!("[{},{},{},\"{}\"]", e.agent, e.other, e.timestep, e.text)),
        );
        f.raw("errors", &errs);
    }
}

/// The fields of the object being written, comma-separated.
struct Fields<'a> {
    out: &'a mut String,
    first: bool,
}

impl Fields<'_> {
    fn raw(&mut self, key: &str, value: &str) {
        if !self.first {
            self.out.push_str(",\n");
        }
        self.first = false;
        let _ = write!(self.out, "\"{key}\":{value}");
    }
}

/// `[a,b,...]` of already-written JSON values.
fn list(items: impl Iterator<Item = String>) -> String {
    let mut s = String::from("[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&item);
    }
    s.push(']');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_the_start_kits_order() {
        let order = |r: &Record| -> Vec<String> {
            r.to_json()
                .lines()
                .filter_map(|l| {
                    l.strip_prefix('"')
                        .and_then(|l| l.split('"').next())
                        .map(str::to_owned)
                })
                .collect()
        };
        let mut r = Record::new(Edition::Lorr2023, 4, &[5]);
        r.actual[0] = b"FR".to_vec();
        r.planned[0] = b"FT".to_vec();
        assert_eq!(
            order(&r),
            [
                "actionModel",
                "AllValid",
                "teamSize",
                "start",
                "numTaskFinished",
                "sumOfCost",
                "makespan",
                "actualPaths",
                "plannerPaths",
                "plannerTimes",
                "errors",
                "events",
                "tasks"
            ]
        );
        assert!(r.to_json().contains("\"start\":[[1,1,\"E\"]]"));
        assert!(r.to_json().contains("\"plannerPaths\":[\"F,T\"]"));
        r.edition = Edition::Lorr2024;
        assert_eq!(
            order(&r),
            [
                "actionModel",
                "version",
                "teamSize",
                "numTaskFinished",
                "makespan",
                "numPlannerErrors",
                "numScheduleErrors",
                "numEntryTimeouts",
                "start",
                "actualPaths",
                "plannerPaths",
                "plannerTimes",
                "errors",
                "actualSchedule",
                "plannerSchedule",
                "scheduleErrors",
                "events",
                "tasks"
            ]
        );
    }
}
