/**
 * Word lists for real-looking (invented) names: team names are a city of the league's
 * country combined with a nickname or a club prefix; people are a first and a last name.
 */

const words = (text: string): readonly string[] => text.split(',').map((w) => w.trim());

/** A table of word lists, each written as one comma-separated string. */
function wordLists<K extends string>(lists: Record<K, string>): Record<K, readonly string[]> {
  const table: Partial<Record<K, readonly string[]>> = {};
  for (const [key, text] of Object.entries<string>(lists)) table[key as K] = words(text);
  return table as Record<K, readonly string[]>;
}

export const CITIES = wordLists({
  us:
    'Boston,New York,Brooklyn,Philadelphia,Chicago,Detroit,Cleveland,Milwaukee,Indiana,Atlanta,Miami,Orlando,Charlotte,Washington,Toronto,' +
    'Dallas,Houston,San Antonio,Memphis,New Orleans,Denver,Utah,Phoenix,Portland,Sacramento,Los Angeles,San Diego,Seattle,Minnesota,' +
    'Oklahoma City,Kansas City,St. Louis,Pittsburgh,Baltimore,Cincinnati,Tampa Bay,Nashville,Las Vegas,Columbus,Buffalo,Omaha,Louisville,' +
    'Albuquerque,Tucson,Austin,El Paso,Fresno,Raleigh,Richmond,Hartford,Providence,Birmingham,Jacksonville,Salt Lake,Boise,Spokane,' +
    'Anchorage,Honolulu,Tulsa,Wichita,Des Moines,Madison,Green Bay,Syracuse,Rochester,Albany,Norfolk,Savannah,Charleston,Knoxville,' +
    'Little Rock,Baton Rouge,Shreveport,Lubbock,Reno,Sioux Falls,Fargo,Billings,Cheyenne,Duluth,Toledo,Akron,Dayton,Lexington',
  canada: 'Toronto,Montreal,Vancouver,Calgary,Edmonton,Ottawa,Winnipeg,Hamilton,Regina,Saskatoon,Halifax,Quebec City,Victoria,London,Kitchener,Windsor',
  england:
    'Manchester,Liverpool,Leeds,Sheffield,Birmingham,Bristol,Newcastle,Sunderland,Nottingham,Leicester,Derby,Southampton,Portsmouth,' +
    'Norwich,Ipswich,Coventry,Stoke,Hull,Bolton,Blackburn,Burnley,Preston,Reading,Oxford,Cambridge,Plymouth,Brighton,Luton,Watford,' +
    'Middlesbrough,Bradford,Wigan,Swindon,Exeter,Carlisle,York,Lincoln,Peterborough,Northampton,Bournemouth',
  spain:
    'Madrid,Barcelona,Valencia,Sevilla,Bilbao,Zaragoza,Málaga,Murcia,Palma,Alicante,Córdoba,Valladolid,Vigo,Gijón,Granada,Oviedo,' +
    'Santander,Pamplona,Almería,Cádiz,Huelva,Elche,Getafe,Girona,Salamanca,Burgos,León,Tenerife,Las Palmas,Vitoria',
  germany:
    'Berlin,Hamburg,München,Köln,Frankfurt,Stuttgart,Düsseldorf,Dortmund,Essen,Bremen,Leipzig,Hannover,Nürnberg,Duisburg,Bochum,' +
    'Wuppertal,Bielefeld,Bonn,Mannheim,Karlsruhe,Augsburg,Freiburg,Mainz,Kiel,Rostock,Kassel,Darmstadt,Paderborn,Heidenheim,Magdeburg',
  italy:
    'Roma,Milano,Napoli,Torino,Palermo,Genova,Bologna,Firenze,Bari,Catania,Venezia,Verona,Messina,Padova,Trieste,Brescia,Parma,' +
    'Modena,Reggio,Perugia,Livorno,Cagliari,Foggia,Salerno,Ferrara,Lecce,Bergamo,Udine,Pisa,Empoli',
  france:
    'Paris,Marseille,Lyon,Toulouse,Nice,Nantes,Strasbourg,Montpellier,Bordeaux,Lille,Rennes,Reims,Le Havre,Toulon,Grenoble,Dijon,' +
    'Angers,Nîmes,Brest,Le Mans,Amiens,Tours,Limoges,Metz,Nancy,Caen,Lorient,Auxerre,Troyes,Ajaccio',
  netherlands: 'Amsterdam,Rotterdam,Den Haag,Utrecht,Eindhoven,Groningen,Tilburg,Almere,Breda,Nijmegen,Enschede,Arnhem,Haarlem,Zwolle,Leiden,Maastricht,Alkmaar,Heerenveen,Venlo,Deventer',
  portugal: 'Lisboa,Porto,Braga,Coimbra,Funchal,Setúbal,Aveiro,Faro,Guimarães,Viseu,Leiria,Évora,Barcelos,Famalicão,Chaves,Vizela,Estoril,Arouca,Portimão,Tondela',
  mexico: 'México,Guadalajara,Monterrey,Puebla,Tijuana,León,Juárez,Torreón,Querétaro,Mérida,Toluca,Cancún,Aguascalientes,Chihuahua,Saltillo,Veracruz,Oaxaca,Culiacán,Hermosillo,Durango,Morelia,Mazatlán,Tampico,Monclova',
  brazil: 'São Paulo,Rio,Belo Horizonte,Porto Alegre,Salvador,Recife,Fortaleza,Curitiba,Goiânia,Belém,Manaus,Florianópolis,Natal,Cuiabá,Campinas,Santos,Maceió,Vitória,Londrina,Juiz de Fora',
  australia: 'Sydney,Melbourne,Brisbane,Perth,Adelaide,Gold Coast,Canberra,Newcastle,Hobart,Cairns,Townsville,Darwin,Geelong,Wollongong',
  europe: 'Athens,Piraeus,Istanbul,Belgrade,Kaunas,Vilnius,Tel Aviv,Moscow,Milano,Madrid,Barcelona,München,Berlin,Paris,Monaco,Bologna,Valencia,Zagreb,Ljubljana,Riga,Tallinn,Sofia,Bucharest,Prague,Warsaw,Vitoria,Lyon,Bamberg',
  japan: 'Tokyo,Osaka,Yokohama,Nagoya,Sapporo,Fukuoka,Kobe,Hiroshima,Sendai,Chiba,Saitama,Kyoto,Niigata,Shizuoka,Okayama,Kumamoto',
  korea: 'Seoul,Busan,Incheon,Daegu,Daejeon,Gwangju,Suwon,Ulsan,Changwon,Goyang,Yongin,Cheongju,Jeonju,Pohang',
  russia: 'Moscow,St. Petersburg,Kazan,Omsk,Yaroslavl,Ufa,Magnitogorsk,Chelyabinsk,Yekaterinburg,Novosibirsk,Nizhny Novgorod,Sochi,Khabarovsk,Minsk,Astana,Vladivostok,Cherepovets,Tolyatti,Podolsk,Balashikha,Samara,Perm',
  sweden: 'Stockholm,Göteborg,Malmö,Uppsala,Linköping,Örebro,Västerås,Luleå,Skellefteå,Växjö,Jönköping,Karlskrona,Gävle,Sundsvall,Leksand,Mora,Timrå,Södertälje',
  finland: 'Helsinki,Espoo,Tampere,Turku,Oulu,Jyväskylä,Lahti,Kuopio,Pori,Rauma,Lappeenranta,Hämeenlinna,Vaasa,Mikkeli,Joensuu,Kouvola,Seinäjoki,Kotka',
});

export const NICKNAMES = wordLists({
  basketball:
    'Hawks,Celtics,Comets,Hornets,Bulls,Cavaliers,Mavericks,Nuggets,Pistons,Warriors,Rockets,Pacers,Clippers,Stars,Grizzlies,Heat,' +
    'Bucks,Wolves,Pelicans,Knights,Thunder,Magic,Suns,Blazers,Kings,Spurs,Raptors,Jazz,Wizards,Storm,Aces,Sky,Sparks,Lynx,Fever,' +
    'Mercury,Dream,Liberty,Sun,Wings,Valkyries,Monarchs,Bombers,Royals,Ironmen,Braves,Colonels,Sounds,Tarpons,Roadrunners,Waves,Glaciers,' +
    'Express,Flyers,Titans,Chargers,Force,Breakers,Hustle,Cyclones',
  football:
    'Patriots,Bills,Dolphins,Jets,Ravens,Steelers,Bengals,Browns,Texans,Colts,Jaguars,Titans,Broncos,Chiefs,Raiders,Chargers,Cowboys,' +
    'Eagles,Giants,Commanders,Bears,Lions,Packers,Vikings,Falcons,Panthers,Saints,Buccaneers,Cardinals,Rams,Seahawks,Niners,Stallions,' +
    'Outlaws,Generals,Renegades,Defenders,Gamblers,Wranglers,Express,Thunderbirds,Roughriders,Blue Bombers,Tiger-Cats,Alouettes,Elks,' +
    'Redblacks,Argonauts,Lumberjacks,Miners,Pioneers,Mustangs,Huskies,Wildcats,Bulldogs,Tigers,Badgers,Hurricanes,Volunteers,Sooners',
  baseball:
    'Red Sox,Yankees,Orioles,Rays,Blue Jays,White Sox,Guardians,Tigers,Royals,Twins,Astros,Angels,Athletics,Mariners,Rangers,Braves,' +
    'Marlins,Mets,Phillies,Nationals,Cubs,Reds,Brewers,Pirates,Cardinals,Diamondbacks,Rockies,Dodgers,Padres,Giants,Bisons,Clippers,' +
    'Bats,Sounds,Isotopes,Aces,Chihuahuas,River Cats,Storm Chasers,Iron Pigs,Mud Hens,Knights,Swallows,Carp,Hawks,Lions,Bears,Eagles,' +
    'Wyverns,Dinos,Twins,Heroes,Landers,Fighters,Marines,Buffaloes,Dragons,Bay Stars',
  baseballMexico: 'Diablos Rojos,Sultanes,Toros,Tigres,Leones,Pericos,Charros,Rieleros,Saraperos,Algodoneros,Guerreros,Acereros,Bravos,Olmecas,Piratas,Naranjeros,Venados,Tomateros,Águilas,Mariachis,Dorados,Generales,Conspiradores,Halcones',
  hockey:
    'Bruins,Sabres,Red Wings,Panthers,Canadiens,Senators,Lightning,Maple Leafs,Hurricanes,Blue Jackets,Devils,Islanders,Rangers,Flyers,' +
    'Penguins,Capitals,Blackhawks,Avalanche,Stars,Wild,Predators,Blues,Jets,Ducks,Flames,Oilers,Kings,Sharks,Kraken,Canucks,Knights,' +
    'Coyotes,Wolves,Admirals,Moose,Marlies,Checkers,Firebirds,Griffins,Barracuda,Condors,Gulls,Reign,Heat,Thunderbirds,Bears,Phantoms,Comets',
  hockeyRussia: 'Dynamo,Avangard,Lokomotiv,Torpedo,Metallurg,Traktor,Salavat,Ak Bars,Sibir,Amur,Severstal,Spartak,CSKA,Neftekhimik,Admiral,Barys,Vityaz,Lada,Kunlun,Molot,Khimik,Kristall',
  hockeyFinland: 'Ilves,Tappara,Lukko,Kärpät,Pelicans,Jokerit,Ässät,Sport,KalPa,HIFK,Jukurit,KooKoo,SaiPa,Blues,TPS,JYP,HPK,Kiekko',
  soccerAnglo: 'United,City,Town,Rovers,Athletic,Wanderers,Albion,County,Rangers,Villa,Argyle,Orient,Vale,Hotspur,Forest,Palace',
  soccerUs: 'FC,SC,United,Galaxy,Fire,Union,Sounders,Timbers,Dynamo,Crew,Revolution,Rapids,Earthquakes,Whitecaps,Impact,Republic',
});

/** Club-name prefixes and suffixes of a country's football clubs. */
export const CLUB_FORMS = wordLists({
  spain: 'Real {city},{city} CF,Atlético {city},UD {city},CD {city},Racing {city},Deportivo {city},SD {city},{city} FC',
  germany: 'FC {city},1. FC {city},VfB {city},SC {city},Borussia {city},Eintracht {city},SV {city},VfL {city},Fortuna {city},TSV {city}',
  italy: 'AC {city},{city} Calcio,US {city},AS {city},SS {city},FC {city},Virtus {city},Sporting {city}',
  france: 'Olympique {city},Stade {city},AS {city},FC {city},Racing {city},RC {city},SC {city},AJ {city},{city} FC,US {city}',
  netherlands: 'FC {city},SC {city},Sparta {city},{city} FC,Go Ahead {city},Vitesse {city},Fortuna {city},Willem {city},RKC {city}',
  portugal: 'Sporting {city},FC {city},Vitória {city},SC {city},Académica {city},Boavista {city},CD {city},GD {city},União {city}',
  mexico: 'Club {city},Atlético {city},Deportivo {city},Tigres de {city},Club América {city},Pumas {city},Xolos {city},Rayados {city},Tuzos {city}',
  brazil: '{city} EC,Atlético {city},Sport Club {city},América {city},Esporte Clube {city},Grêmio {city},Botafogo {city},Náutico {city},Ceará {city}',
  basketballEurope: 'Olympiacos {city},Panathinaikos {city},Partizan {city},Crvena Zvezda {city},Žalgiris {city},Maccabi {city},Efes {city},Fenerbahçe {city},Virtus {city},Baskonia {city},Real {city},Barça {city},Bayern {city},Alba {city},ASVEL {city},Monaco {city},Olimpia {city},Valencia Basket {city}',
  basketballSpain: 'CB {city},{city} Basket,Baloncesto {city},Club Joventut {city},Unicaja {city},Lenovo {city},Bàsquet {city},Río {city},Gran Canaria {city}',
  hockeySweden: '{city} HC,{city} IF,{city} HK,{city} IK,{city} BK,{city} AIK',
});

export interface PersonPool {
  male: readonly string[];
  female: readonly string[];
  last: readonly string[];
}

export const PEOPLE: Record<'anglo' | 'latin' | 'euro' | 'asia', PersonPool> = {
  anglo: {
    male: words('James,Michael,Chris,Jalen,Devin,Tyler,Marcus,Brandon,Justin,Kevin,Jordan,Anthony,Derrick,Cole,Ryan,Tyrese,Caleb,Ethan,Noah,Mason,Liam,Logan,Connor,Isaiah,Darius,Trey,Aaron,Zach,Nathan,Owen'),
    female: words('Sarah,Emily,Jessica,Ashley,Megan,Brittney,Kayla,Alyssa,Taylor,Morgan,Courtney,Jasmine,Brianna,Madison,Hannah,Olivia,Chloe,Grace,Paige,Sydney,Aaliyah,Candace,Diana,Natalie'),
    last: words('Johnson,Williams,Brown,Jones,Miller,Davis,Wilson,Anderson,Taylor,Thomas,Moore,Jackson,Martin,Thompson,White,Harris,Clark,Lewis,Walker,Hall,Young,Allen,King,Wright,Scott,Green,Baker,Adams,Nelson,Carter,Mitchell,Roberts,Turner,Phillips,Campbell,Parker,Evans,Edwards,Collins,Stewart,Morris,Murphy,Cook,Rogers,Morgan,Bell,Bailey,Cooper,Howard,Ward'),
  },
  latin: {
    male: words('Carlos,Luis,Miguel,José,Juan,Diego,Alejandro,Javier,Sergio,Pablo,Rafael,Andrés,Fernando,Ricardo,Gabriel,Mateo,Thiago,Lucas,Bruno,Rodrigo,Marco,Gonzalo,Iker,Álvaro,Hugo,Vinícius,João,Pedro,Lorenzo,Matías'),
    female: words('María,Lucía,Paula,Sofía,Valentina,Camila,Daniela,Carla,Marta,Elena,Ana,Beatriz,Julia,Gabriela,Isabella,Martina,Giulia,Francesca,Inês,Catarina,Renata,Ximena'),
    last: words('García,Rodríguez,Martínez,López,González,Hernández,Pérez,Sánchez,Ramírez,Torres,Flores,Rivera,Gómez,Díaz,Morales,Ortiz,Castillo,Romero,Navarro,Ruiz,Silva,Santos,Oliveira,Costa,Pereira,Ferreira,Rossi,Russo,Ferrari,Esposito,Bianchi,Romano,Moreno,Álvarez,Vargas,Castro,Mendes,Alves,Ribeiro,Fuentes'),
  },
  euro: {
    male: words('Luka,Nikola,Jonas,Lukas,Felix,Leon,Maximilian,Erik,Oskar,Mikael,Antoine,Hugo,Théo,Kylian,Sven,Jan,Pieter,Daan,Matthijs,Viktor,Dmitri,Alexei,Artemi,Ilya,Mikko,Aleksander,Jakub,Filip,Elias,Henrik'),
    female: words('Iga,Aryna,Elena,Jelena,Petra,Karolína,Marketa,Anastasia,Daria,Ekaterina,Emma,Léa,Chloé,Laura,Anna,Sofia,Elina,Barbora,Ons,Jasmine,Caroline,Magda,Linda,Viktorija'),
    last: words('Müller,Schmidt,Schneider,Fischer,Weber,Wagner,Becker,Hoffmann,Dubois,Laurent,Moreau,Lefèvre,Bernard,de Jong,Jansen,van Dijk,Bakker,Visser,Andersson,Johansson,Karlsson,Nilsson,Virtanen,Korhonen,Mäkinen,Ivanov,Petrov,Smirnov,Kuznetsov,Novak,Horvat,Kovač,Jovanović,Petrović,Nowak,Kowalski,Dvořák,Svoboda,Popescu,Georgiou'),
  },
  asia: {
    male: words('Shohei,Yu,Kenta,Haruto,Ren,Daiki,Sota,Yuki,Kazuki,Takumi,Min-jun,Ji-ho,Seo-jun,Hyun-woo,Jae-won,Dong-hyun,Sung-min,Tae-yang,Kei,Hiroshi'),
    female: words('Naomi,Yui,Hina,Sakura,Aoi,Mei,Ji-woo,Seo-yeon,Min-seo,Ha-eun,Qinwen,Shuai,Xinyu,Lin,Yuan,Mio'),
    last: words('Sato,Suzuki,Takahashi,Tanaka,Watanabe,Ito,Yamamoto,Nakamura,Kobayashi,Kato,Yoshida,Yamada,Kim,Lee,Park,Choi,Jung,Kang,Cho,Yoon,Zheng,Wang,Zhang,Liu,Chen'),
  },
};

/** The pools a league's naming draws from (catalog.ts). */
export type CityPool = keyof typeof CITIES;
export type NicknamePool = keyof typeof NICKNAMES;
export type ClubFormsPool = keyof typeof CLUB_FORMS;
export type PeoplePool = keyof typeof PEOPLE;

export const OPERATOR_NAMES = words('Northstar Bet,Kingsbet,BetHarbor,Apex Sportsbook,Lucky Meridian,Crown & Anchor,PrimeOdds,Redline Bets');
