//! The rules of one stream's driver as plain state, apart from the futures
//! that wait for each event: what the stream holds at each step, what it
//! may wait for next, and how each event changes it.
//!
//! [`Flow`] holds what a stream has in hand (budget reserved or being
//! waited for, batches at the pool or waiting for room there, responses
//! waiting for room in the response channel) and whether it still reads.
//! Every change goes through a transition method, and [`Flow::waits`] says
//! which events the driver's `select!` may take next. The driver only
//! polls what the flow holds and reports what happened. Because the flow
//! is generic over what it holds ([`Holds`]), its tests run it with plain
//! values, with no runtime, pool or clock, one transition at a time, as
//! h2 tests its stream `State` and `FlowControl`.

use std::collections::VecDeque;

use super::protocol::Ending;

/// The types of what a stream holds: futures and data in the driver,
/// plain values in the tests.
pub trait Holds {
    /// A wait for budget for the next request.
    type Reserving;
    /// Budget reserved for the next request.
    type Charge;
    /// A batch whose jobs wait for room in the pool.
    type Submitting;
    /// A batch at the pool, waiting for its answers.
    type Pending;
    /// The responses to a batch, waiting for room in the response channel.
    type Group;
    /// The error a failed request side yields.
    type Error;
}

/// One stream's state as its driver goes.
pub struct Flow<H: Holds> {
    reserving: Option<H::Reserving>,
    reserved: Option<H::Charge>,
    submitting: Option<H::Submitting>,
    pending: VecDeque<H::Pending>,
    ready: Option<H::Group>,
    /// False once the stream has stopped reading.
    reading: bool,
    /// True once a request has been read.
    read_any: bool,
    /// How the stream ends, once its answers are out: the first reason it
    /// stopped reading.
    ending: Option<Ending<H::Error>>,
}

/// The events the driver may wait for next: one field per branch of its
/// `select!` (the client going away and the deadline are always waited
/// for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Waits {
    /// Room in the response channel for the group that is ready.
    pub send: bool,
    /// The answers of the oldest batch at the pool: only while no group
    /// waits to be sent, so that responses leave in request order.
    pub answers: bool,
    /// Room in the pool for the batch waiting for it.
    pub submitted: bool,
    /// The server starting to drain.
    pub draining: bool,
    /// Budget for the next request.
    pub budget: bool,
    /// Room in the stream's window.
    pub window: bool,
    /// The next request.
    pub request: bool,
    /// The first request's timeout: armed before any request is read, and
    /// never while the stream waits for budget (that wait is the
    /// server's, not a client that sends nothing).
    pub first_request: bool,
}

/// What a flow holds that the driver polls, borrowed at once.
pub struct Waiting<'a, H: Holds> {
    /// The wait for budget for the next request.
    pub reserving: &'a mut Option<H::Reserving>,
    /// The batch waiting for room in the pool.
    pub submitting: &'a mut Option<H::Submitting>,
    /// The batches at the pool, oldest first.
    pub pending: &'a mut VecDeque<H::Pending>,
}

impl<H: Holds> Default for Flow<H> {
    fn default() -> Self {
        Flow {
            reserving: None,
            reserved: None,
            submitting: None,
            pending: VecDeque::new(),
            ready: None,
            reading: true,
            read_any: false,
            ending: None,
        }
    }
}

impl<H: Holds> Flow<H> {
    /// A stream that has read nothing yet.
    pub fn new() -> Flow<H> {
        Flow::default()
    }

    /// Which events the driver may wait for, with `window_has_room` saying
    /// whether the stream's window has room for one more request.
    pub fn waits(&self, window_has_room: bool) -> Waits {
        let may_read = self.may_read(window_has_room);
        Waits {
            send: self.ready.is_some(),
            answers: self.ready.is_none() && !self.pending.is_empty(),
            submitted: self.submitting.is_some(),
            draining: self.reading,
            budget: self.reserving.is_some(),
            window: self.reading && !window_has_room,
            request: may_read && self.reserved.is_some(),
            first_request: self.reading && !self.read_any && self.reserving.is_none(),
        }
    }

    /// Whether the stream should reserve budget for its next request: it
    /// may read one and has no budget in hand or on its way.
    pub fn needs_budget(&self, window_has_room: bool) -> bool {
        self.may_read(window_has_room) && self.reserved.is_none() && self.reserving.is_none()
    }

    /// Whether the stream may read its next request once it has budget:
    /// it still reads, no batch waits for the pool, and its window has
    /// room.
    fn may_read(&self, window_has_room: bool) -> bool {
        self.reading && self.submitting.is_none() && window_has_room
    }

    /// The stream is done: it reads no more and everything it read was
    /// answered and handed to the response channel.
    pub fn is_done(&self) -> bool {
        !self.reading
            && self.pending.is_empty()
            && self.submitting.is_none()
            && self.ready.is_none()
    }

    /// Budget for the next request is on its way.
    pub fn reserving(&mut self, wait: H::Reserving) {
        self.reserving = Some(wait);
    }

    /// Budget for the next request is in hand (at once, or after a wait).
    pub fn reserved(&mut self, charge: H::Charge) {
        self.reserving = None;
        self.reserved = Some(charge);
    }

    /// A request was read: the budget reserved for it is taken.
    pub fn request_read(&mut self) -> H::Charge {
        self.read_any = true;
        self.reserved
            .take()
            .expect("a request is read only with budget reserved")
    }

    /// A batch was handed to the pool whole.
    pub fn queued(&mut self, pending: H::Pending) {
        self.pending.push_back(pending);
    }

    /// A batch waits for room in the pool; no request is read until it
    /// has it.
    pub fn submitting(&mut self, wait: H::Submitting) {
        self.submitting = Some(wait);
    }

    /// The batch that waited for room in the pool is there.
    pub fn submitted(&mut self, pending: H::Pending) {
        self.submitting = None;
        self.pending.push_back(pending);
    }

    /// The oldest batch is answered: its responses wait for room in the
    /// response channel, made by `respond`.
    pub fn answered(&mut self, respond: impl FnOnce(H::Pending) -> H::Group) {
        let oldest = self
            .pending
            .pop_front()
            .expect("answers come only from a pending batch");
        self.ready = Some(respond(oldest));
    }

    /// The ready group, to send now that the channel has room.
    pub fn take_ready(&mut self) -> H::Group {
        self.ready.take().expect("sent only when a group is ready")
    }

    /// Stops reading, for `ending`, and drops any budget held for the next
    /// request. The stream ends as the first call said, once its answers
    /// are out.
    pub fn stop_reading(&mut self, ending: Ending<H::Error>) {
        self.reading = false;
        self.reserving = None;
        self.reserved = None;
        self.ending.get_or_insert(ending);
    }

    /// How the stream ended: the first reason it stopped reading, or
    /// [`Ending::Finished`].
    pub fn ending(&mut self) -> Ending<H::Error> {
        self.ending.take().unwrap_or(Ending::Finished)
    }

    /// The deadline passed: stops reading, drops the batch waiting for the
    /// pool, and gives up the ready group and the batches at the pool,
    /// oldest first, for the driver to answer what it can. The stream ends
    /// as its deadline, whatever stopped its reading before.
    pub fn expire(&mut self) -> (Option<H::Group>, VecDeque<H::Pending>) {
        self.submitting = None;
        self.stop_reading(Ending::DeadlineExceeded);
        self.ending = Some(Ending::DeadlineExceeded);
        (self.ready.take(), std::mem::take(&mut self.pending))
    }

    /// What the driver's `select!` polls at once: the wait for budget, the
    /// wait for the pool, and the batches at the pool.
    pub fn waiting_mut(&mut self) -> Waiting<'_, H> {
        Waiting {
            reserving: &mut self.reserving,
            submitting: &mut self.submitting,
            pending: &mut self.pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain values for what a stream holds.
    struct Plain;

    impl Holds for Plain {
        type Reserving = &'static str;
        type Charge = usize;
        type Submitting = &'static str;
        type Pending = u32;
        type Group = String;
        type Error = &'static str;
    }

    const ROOM: bool = true;
    const FULL: bool = false;

    /// A flow that has read one request, with this charge.
    fn read_one(charge: usize) -> Flow<Plain> {
        let mut flow = Flow::new();
        flow.reserved(charge);
        assert_eq!(flow.request_read(), charge);
        flow
    }

    #[test]
    fn a_new_stream_reserves_budget_and_arms_the_first_request_timer() {
        let flow = Flow::<Plain>::new();
        assert!(flow.needs_budget(ROOM));
        assert!(!flow.needs_budget(FULL));
        assert!(!flow.is_done());
        assert_eq!(
            flow.waits(ROOM),
            Waits {
                draining: true,
                first_request: true,
                ..Waits::default()
            }
        );
        assert!(flow.waits(FULL).window);
    }

    #[test]
    fn waiting_for_budget_disarms_the_first_request_timer() {
        let mut flow = Flow::<Plain>::new();
        flow.reserving("budget");
        let waits = flow.waits(ROOM);
        assert!(waits.budget && !waits.first_request && !waits.request);
        assert!(!flow.needs_budget(ROOM), "one reservation at a time");
        flow.reserved(7);
        let waits = flow.waits(ROOM);
        assert!(!waits.budget && waits.first_request && waits.request);
        assert_eq!(*flow.waiting_mut().reserving, None);
    }

    #[test]
    fn a_request_is_read_only_with_budget_and_room_in_the_window() {
        let mut flow = Flow::<Plain>::new();
        assert!(!flow.waits(ROOM).request, "no budget yet");
        flow.reserved(5);
        assert!(flow.waits(ROOM).request);
        assert!(!flow.waits(FULL).request, "the window is full");
        assert!(flow.waits(FULL).window);
        assert!(!flow.needs_budget(ROOM), "budget in hand");
    }

    #[test]
    fn reading_a_request_takes_its_budget_and_disarms_the_first_request_timer() {
        let flow = read_one(5);
        let waits = flow.waits(ROOM);
        assert!(!waits.first_request && !waits.request);
        assert!(flow.needs_budget(ROOM), "budget for the next request");
    }

    #[test]
    fn a_batch_waiting_for_the_pool_stops_reading_until_it_is_there() {
        let mut flow = read_one(5);
        flow.submitting("pool");
        flow.reserved(5);
        let waits = flow.waits(ROOM);
        assert!(waits.submitted && !waits.request);
        assert!(!flow.needs_budget(ROOM));
        assert_eq!(*flow.waiting_mut().submitting, Some("pool"));
        flow.submitted(1);
        let waits = flow.waits(ROOM);
        assert!(!waits.submitted && waits.request && waits.answers);
        assert_eq!(flow.waiting_mut().pending.len(), 1);
    }

    #[test]
    fn answers_are_taken_one_group_at_a_time_oldest_first() {
        let mut flow = read_one(5);
        flow.queued(1);
        flow.queued(2);
        assert!(flow.waits(ROOM).answers);
        flow.answered(|batch| format!("group {batch}"));
        let waits = flow.waits(ROOM);
        assert!(
            waits.send && !waits.answers,
            "the next waits for the first's send"
        );
        assert_eq!(flow.take_ready(), "group 1");
        assert!(flow.waits(ROOM).answers);
        flow.answered(|batch| format!("group {batch}"));
        assert_eq!(flow.take_ready(), "group 2");
        assert_eq!(
            flow.waits(ROOM),
            Waits {
                draining: true,
                ..Waits::default()
            }
        );
    }

    #[test]
    fn stopping_drops_the_budget_and_watches_neither_draining_nor_the_window() {
        let mut flow = Flow::<Plain>::new();
        flow.reserving("budget");
        flow.stop_reading(Ending::Draining);
        assert_eq!(*flow.waiting_mut().reserving, None);
        assert_eq!(flow.waits(FULL), Waits::default());
        assert!(!flow.needs_budget(ROOM));
        let mut flow = Flow::<Plain>::new();
        flow.reserved(5);
        flow.stop_reading(Ending::Finished);
        assert_eq!(flow.waits(ROOM), Waits::default(), "budget dropped");
    }

    /// Plain values, but budget that says when it is given back.
    struct Counted;

    impl Holds for Counted {
        type Reserving = std::rc::Rc<()>;
        type Charge = std::rc::Rc<()>;
        type Submitting = ();
        type Pending = ();
        type Group = ();
        type Error = ();
    }

    #[test]
    fn stopping_gives_back_the_budget_held_or_awaited() {
        let budget = std::rc::Rc::new(());
        let mut reserved = Flow::<Counted>::new();
        reserved.reserved(budget.clone());
        let mut reserving = Flow::<Counted>::new();
        reserving.reserving(budget.clone());
        assert_eq!(std::rc::Rc::strong_count(&budget), 3);
        reserved.stop_reading(Ending::Draining);
        reserving.stop_reading(Ending::Draining);
        assert_eq!(std::rc::Rc::strong_count(&budget), 1, "both given back");
    }

    #[test]
    fn the_first_reason_to_stop_is_the_ending() {
        let mut flow = Flow::<Plain>::new();
        flow.stop_reading(Ending::RequestFailed("reset"));
        flow.stop_reading(Ending::Draining);
        assert!(matches!(flow.ending(), Ending::RequestFailed("reset")));
        let mut quiet = Flow::<Plain>::new();
        quiet.stop_reading(Ending::NoFirstMessage(std::time::Duration::from_secs(1)));
        assert!(matches!(quiet.ending(), Ending::NoFirstMessage(_)));
        assert!(matches!(Flow::<Plain>::new().ending(), Ending::Finished));
    }

    #[test]
    fn a_stream_is_done_once_it_reads_no_more_and_everything_is_handed_on() {
        let mut flow = read_one(5);
        flow.queued(1);
        flow.stop_reading(Ending::Finished);
        assert!(!flow.is_done(), "a batch at the pool");
        flow.answered(|batch| batch.to_string());
        assert!(!flow.is_done(), "a group to send");
        flow.take_ready();
        assert!(flow.is_done());
        let mut waiting = read_one(5);
        waiting.submitting("pool");
        waiting.stop_reading(Ending::Finished);
        assert!(!waiting.is_done(), "a batch waiting for the pool");
        waiting.submitted(2);
        assert!(!waiting.is_done());
        assert!(!read_one(5).is_done(), "still reading");
    }

    #[test]
    fn expiry_gives_up_what_is_held_in_order_and_ends_as_the_deadline() {
        let mut flow = read_one(5);
        flow.queued(1);
        flow.queued(2);
        flow.answered(|batch| batch.to_string());
        flow.queued(3);
        flow.submitting("pool");
        let (ready, pending) = flow.expire();
        assert_eq!(ready.as_deref(), Some("1"));
        assert_eq!(Vec::from(pending), [2, 3]);
        assert!(flow.is_done());
        assert!(matches!(flow.ending(), Ending::DeadlineExceeded));
        let mut finished = read_one(5);
        finished.queued(1);
        finished.stop_reading(Ending::Finished);
        finished.expire();
        assert!(
            matches!(finished.ending(), Ending::DeadlineExceeded),
            "the deadline passed before the answers were out"
        );
    }
}
