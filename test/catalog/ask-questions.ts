// The question set for ask over the demo podcast in content/ (Contour Lines): what a person asks the
// catalog about the show itself, phrased many ways, and topic questions, each with the text its
// answer must contain and the episodes it must cite. The facts come from content/feed.xml.

export interface AskQuestion {
  readonly question: string
  /** Text the answer must contain, compared without regard to case. */
  readonly contains: ReadonlyArray<string>
  /** Slugs of the episodes the answer must cite. */
  readonly cites: ReadonlyArray<string>
  /**
   * `fact`: answered from the episode records, citing exactly `cites` and nothing else;
   * `topic`: answered with extracts, citing at least `cites`.
   */
  readonly kind: "fact" | "topic"
}

const hosts = ["Nell Sorensen", "Ravi Castellane"]

const fact = (
  question: string,
  contains: ReadonlyArray<string>,
  cites: ReadonlyArray<string>
): AskQuestion => ({
  question,
  contains,
  cites,
  kind: "fact"
})

const topic = (
  question: string,
  contains: ReadonlyArray<string>,
  cites: ReadonlyArray<string>
): AskQuestion => ({
  question,
  contains,
  cites,
  kind: "topic"
})

const season1 = ["-1", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "-2"]
const season2 = ["15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "-3"]
const season3 = ["29", "30", "31", "32", "33", "34", "35", "-4", "36", "37", "38", "39", "40", "41", "42"]

export const askQuestions: ReadonlyArray<AskQuestion> = [
  // Who hosts the show, an episode, a season.
  fact("who hosts the show", hosts, ["42"]),
  fact("Who is the host?", hosts, ["42"]),
  fact("Who are the hosts of this podcast?", hosts, ["42"]),
  fact("WHO HOSTS THE PODCAST", hosts, ["42"]),
  fact("who presents Contour Lines?", hosts, ["42"]),
  fact("Who runs the show?", hosts, ["42"]),
  fact("Who hosted episode 5?", hosts, ["5"]),
  fact("who hosted season 2", hosts, ["-3"]),

  // Who the guests of an episode were.
  fact("who was on episode 12", ["Leopold Varnum", "Tomasz Wierzba"], ["12"]),
  fact("Who was the guest on episode 7?", ["Prudence Ashworth"], ["7"]),
  fact("who were the guests of episode fourteen", ["Agathe Lindqvist", "Prudence Ashworth"], ["14"]),
  fact("Who appeared in ep 36?", ["Clementine Ashby", "Agathe Lindqvist"], ["36"]),
  fact("who was the guest in episode #28?", ["Ines Carvalho", "Piet Oosterhuis"], ["28"]),
  fact("Who was on episode 40?", ["Ravi Gets Lost", "no guest"], ["40"]),
  fact("guests in episode thirty-three", ["Hugo Balestrieri"], ["33"]),
  fact("Who was the guest on the latest episode?", ["Fenna de Wit", "Prudence Ashworth"], ["42"]),
  fact("who was on the first episode?", ["Leopold Varnum"], ["1"]),
  fact("who was the guest on episode number 3", ["Tomasz Wierzba"], ["3"]),

  // Who the guests of a season, or of the whole show, were.
  fact(
    "guests of season 2",
    [
      "Ines Carvalho",
      "Oskar Thorvaldsen",
      "Marguerite Dusollier",
      "Jun Takahara",
      "Beatrix Coole",
      "Selma Haddad",
      "Piet Oosterhuis",
      "Yusuf Demirci",
      "Rosalind Pike",
      "Wren Halloran",
      "Kwame Osei-Larbi",
      "Tomasz Wierzba",
      "Fenna de Wit"
    ],
    season2
  ),
  fact("Who were the guests in season one?", ["Leopold Varnum", "Abel Tennant", "Callum Strachan"], season1),
  fact("Who appeared in the third season?", ["Marta Kowalczyk", "Noor Rahimi", "Thaddeus Grell"], season3),
  fact("How many guests were there in session 2?", ["13"], season2),
  fact(
    "Who were the guests on the show?",
    ["28", "Leopold Varnum", "Hugo Balestrieri", "Sigrún Eyjólfsdóttir"],
    [
      ...["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
      ...["15", "16", "17", "18", "19", "20", "21", "22", "23", "24"],
      ...["29", "30", "31", "32", "33", "34", "35", "36"]
    ]
  ),

  // The latest and the first episode.
  fact("what's the latest episode", ["Every Map Is a Promise", "29 April 2025"], ["42"]),
  fact("What is the newest episode?", ["Every Map Is a Promise"], ["42"]),
  fact("most recent episode?", ["Every Map Is a Promise"], ["42"]),
  fact("Which episode came out last?", ["Every Map Is a Promise", "29 April 2025"], ["42"]),
  fact("what was the first episode", ["The Benchmark on the Church Wall", "14 March 2023"], ["1", "-1"]),
  fact("What was the very first episode of the podcast?", ["The Benchmark on the Church Wall"], ["1", "-1"]),
  fact("When did the show start?", ["14 March 2023", "7 March 2023"], ["1", "-1"]),
  fact("What's the last episode of season 1?", ["After Hours at the Map Shop", "20 June 2023"], ["14", "-2"]),
  fact("the first episode of the second season", ["Pinging the Seafloor", "9 January 2024"], ["15"]),
  fact("When did season 3 begin?", ["Stereo Pairs", "14 January 2025"], ["29"]),
  fact("When did season 2 end?", ["High Water", "9 April 2024", "17 May 2024"], ["28", "-3"]),

  // How long an episode is.
  fact("how long is episode 7", ["8 minutes 48 seconds"], ["7"]),
  fact("What's the duration of episode 41?", ["19 minutes 18 seconds"], ["41"]),
  fact("How long was episode thirty-six?", ["23 minutes 10 seconds"], ["36"]),
  fact("length of ep 1", ["11 minutes 2 seconds"], ["1"]),
  fact("how many minutes is episode 42?", ["14 minutes 1 second"], ["42"]),
  fact("What is the longest episode?", ["Constellations on Copper", "23 minutes 10 seconds"], ["36"]),
  fact(
    "which is the shortest episode",
    ["Forty Metres Down, Ten Centimetres at a Time", "7 minutes 31 seconds"],
    ["4", "-1"]
  ),
  fact("How long is the latest episode?", ["14 minutes 1 second"], ["42"]),
  fact("How long is the trailer?", ["2 minutes 23 seconds"], ["-1"]),

  // When an episode came out.
  fact("when did episode 3 come out", ["28 March 2023"], ["3"]),
  fact("When was episode 20 released?", ["13 February 2024"], ["20"]),
  fact("what date was episode thirty-three published", ["11 February 2025"], ["33"]),
  fact("release date of episode 22", ["27 February 2024"], ["22"]),
  fact("When did episode 18 air?", ["30 January 2024"], ["18"]),

  // How many episodes a season, or the show, has.
  fact("how many episodes are in season 1", ["16"], ["-1", "-2"]),
  fact("How many episodes does season two have?", ["15"], ["15", "-3"]),
  fact("number of episodes in the third season", ["15"], ["29", "42"]),
  fact("How many episodes are there?", ["46"], ["-1", "42"]),
  fact("how many seasons does the podcast have", ["3 seasons"], ["-1", "15", "29"]),

  // Which episodes a person appears in.
  fact(
    "which episodes is Fenna de Wit in",
    ["Control Descriptions", "Bonus: Lost on Purpose", "Every Map Is a Promise"],
    ["8", "-3", "42"]
  ),
  fact(
    "What episodes feature Prudence Ashworth?",
    [
      "Foxing, Tears and Wheat Starch Paste",
      "After Hours at the Map Shop",
      "The Archive in the Flood",
      "Every Map Is a Promise"
    ],
    ["7", "14", "41", "42"]
  ),
  fact("Which episode has Hugo Balestrieri?", ["Charting the Pack Ice"], ["33"]),
  fact("How many episodes has Leopold Varnum been on?", ["3 episodes"], ["1", "12", "38"]),
  fact("When was Jun Takahara on the show?", ["30 January 2024", "8 April 2025"], ["18", "39"]),
  fact(
    "which episodes is kwame in",
    ["The Names on the Hill", "What the Name Forgot", "Bonus: Live at the Port Ellery Library"],
    ["5", "25", "-4"]
  ),
  fact(
    "Where does Selma Haddad appear?",
    ["The Long Life of Ancient Post Street", "What the Name Forgot"],
    ["20", "25"]
  ),
  fact("Who is Sigrun Eyjolfsdottir?", ["Ink in the Lava Field"], ["31"]),
  fact(
    "Which episodes is Takahara in?",
    ["The Glacier Moves While You Measure It", "Glacier Revisited"],
    ["18", "39"]
  ),
  fact("Is Piet Oosterhuis in any episodes?", ["Below Sea Level", "High Water"], ["21", "28"]),
  fact("what episodes is Agathe Lindqvist on in season 3", ["Constellations on Copper"], ["36"]),
  fact("Which episodes is Nell Sorensen in?", ["46 episodes"], ["-1", "42"]),

  // What an episode is called.
  fact("What is episode 12 called?", ["Triangles All the Way Down"], ["12"]),
  fact("title of episode 30", ["Lettering the Mountains"], ["30"]),
  fact("whats the name of episode nine", ["The Brass Brain"], ["9"]),

  // Episodes and seasons that do not exist: said plainly, never made up.
  fact("who was on episode 999", ["no episode 999"], ["42"]),
  fact("How many episodes are in season 7?", ["no season 7"], ["42"]),

  // Topic questions, answered with what was said and written.
  topic("What did Prudence Ashworth say about wheat starch paste?", ["wheat starch paste"], ["7"]),
  topic("What is wheat starch paste?", ["refined wheat starch"], ["7"]),
  topic("Who found the wreck of the Margery Hale?", ["Margery Hale"], ["15"]),
  topic("When did the Margery Hale sink?", ["January 1917"], ["15"]),
  topic("How did the Pollard Bank move between 1794 and 1991?", ["Pollard Bank"], ["42"]),
  topic("What happens in episode 12?", ["Cold Barrow"], ["12"]),
  topic("episodes with Fenna de Wit", ["Fenna de Wit"], ["42", "-3", "8"]),
  topic("Who drew the orienteering maps?", ["Fenna de Wit"], ["-3"]),
  topic("How do you measure a glacier?", ["Jun Takahara"], ["18"]),
  topic("When was the lighthouse automated?", ["1991"], ["10"]),
  topic("Where is the Hat rock?", ["the Hat"], ["-4"]),
  topic("Why does Ravi get lost on purpose?", ["gets lost on purpose"], ["-1"])
]
